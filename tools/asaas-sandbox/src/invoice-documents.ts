import { brl, escape, sendHtml, type PageHandler } from './pages.ts';
import type { Store } from './store.ts';
import type { SandboxInvoice } from './types.ts';

/** Text inside a PDF string: Latin-1 (the font's WinAnsi encoding), with its delimiters escaped. */
const pdfText = (text: string) => text.replace(/[^\x20-\xff]/g, '?').replace(/[\\()]/g, (char) => `\\${char}`);

/**
 * A one-page PDF 1.4 writing `lines` in Helvetica: five objects and the cross-reference table giving each one's
 * byte offset, as readers need to open it.
 */
export function onePagePdf(lines: string[]): Buffer {
  const content = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 16 : 11} Tf 56 ${780 - i * 22} Td (${pdfText(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets = objects.map((object, i) => {
    const offset = Buffer.byteLength(pdf, 'latin1');
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const dateBr = (date: string) => date.split('-').reverse().join('/');

function invoicePdf(invoice: SandboxInvoice): Buffer {
  return onePagePdf([
    `NFS-e nº ${invoice.number}`,
    `Código de verificação: ${invoice.validationCode}`,
    `Data de emissão: ${dateBr(invoice.effectiveDate)}`,
    `Serviço: ${invoice.serviceDescription ?? invoice.municipalServiceName ?? ''}`,
    `Valor dos serviços: ${brl.format(invoice.value)}`,
    `Deduções: ${brl.format(invoice.deductions)}`,
    'Documento emitido em ambiente de testes: sem valor fiscal.',
  ]);
}

function invoiceXml(invoice: SandboxInvoice): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<CompNfse><Nfse><InfNfse>
<Numero>${invoice.number}</Numero>
<CodigoVerificacao>${invoice.validationCode}</CodigoVerificacao>
<DataEmissao>${invoice.effectiveDate}</DataEmissao>
<Servico><Valores><ValorServicos>${invoice.value.toFixed(2)}</ValorServicos><ValorDeducoes>${invoice.deductions.toFixed(2)}</ValorDeducoes></Valores>
<Discriminacao>${escape(invoice.serviceDescription ?? '')}</Discriminacao></Servico>
</InfNfse></Nfse></CompNfse>
`;
}

/** `/nfse/:id.pdf` and `/nfse/:id.xml`: an issued nota fiscal's documents (`pdfUrl`, `xmlUrl`). */
export function invoiceDocuments(store: Store): PageHandler {
  return async function handleDocument(req, res, url) {
    const match = /^\/nfse\/([^/]+)\.(pdf|xml)$/.exec(url.pathname);
    const invoice = match ? store.invoices.get(decodeURIComponent(match[1]!)) : undefined;
    if (!invoice?.number || req.method !== 'GET') {
      return sendHtml(
        res,
        404,
        '<!doctype html><html lang="pt-BR"><body><h1>Nota fiscal não encontrada</h1></body></html>',
      );
    }
    if (match![2] === 'pdf') {
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="nfse-${invoice.number}.pdf"`,
      });
      return void res.end(invoicePdf(invoice));
    }
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    res.end(invoiceXml(invoice));
  };
}
