import PDFDocument from 'pdfkit';
import { qrCodePng } from '@ticketing/platform';
import { formatHourCount, formatHours } from '@ticketing/proto';

/** What a certificate prints. */
export interface CertificateDocument {
  code: string;
  holderName: string;
  eventTitle: string;
  location: string;
  /** '12/03/2027' or '12/03/2027 a 14/03/2027'. */
  dates: string;
  hours: number;
  sessions: { label: string; hours: number }[];
  /** The text with its placeholders ({nome}, {evento}, {datas}, {horas}, {local}). */
  body: string;
  signerName: string | null;
  signerRole: string | null;
  signatureImage: Buffer | null;
  verifyUrl: string;
}

/** The text with the holder's, the event's and the hours' values in place of its placeholders. */
export function filledText(document: CertificateDocument): string {
  const values: Record<string, string> = {
    nome: document.holderName,
    evento: document.eventTitle,
    datas: document.dates,
    horas: formatHourCount(document.hours),
    local: document.location,
  };
  return document.body.replace(/\{(nome|evento|datas|horas|local)\}/g, (_, key: string) => values[key]!);
}

/** Whether an image can be drawn on a certificate: a PNG whose header says so may still be cut short or corrupt. */
export function isDrawable(image: Buffer): boolean {
  try {
    new PDFDocument({ size: [10, 10] }).image(image, 0, 0, { width: 10 });
    return true;
  } catch {
    return false;
  }
}

const INK = '#1f2937';
const ACCENT = '#0f766e';

/** The certificate as an A4 landscape PDF in pt-BR, with a QR code that opens its verification page. */
export function certificatePdf(document: CertificateDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 56,
    info: { Title: `Certificado — ${document.eventTitle}`, Author: document.signerName ?? '' },
    lang: 'pt-BR',
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const { width, height } = pdf.page;
  const left = 56;
  const textWidth = width - 2 * left;
  pdf
    .lineWidth(3)
    .strokeColor(ACCENT)
    .rect(24, 24, width - 48, height - 48)
    .stroke();
  pdf
    .lineWidth(0.75)
    .rect(32, 32, width - 64, height - 64)
    .stroke();

  pdf.fillColor(ACCENT).font('Helvetica-Bold').fontSize(30);
  pdf.text('CERTIFICADO DE PARTICIPAÇÃO', left, 80, { width: textWidth, align: 'center' });
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(26);
  pdf.text(document.holderName, left, 150, { width: textWidth, align: 'center' });
  pdf.font('Helvetica').fontSize(14);
  pdf.text(filledText(document), left + 40, 200, { width: textWidth - 80, align: 'center', lineGap: 4 });
  pdf.moveDown(0.8).fontSize(10).fillColor('#4b5563');
  pdf.text(
    `Sessões frequentadas: ${document.sessions.map((session) => `${session.label} (${formatHourCount(session.hours)} h)`).join('; ')}`,
    { width: textWidth - 80, align: 'center' },
  );
  pdf.text(`Carga horária: ${formatHours(document.hours)}`, { width: textWidth - 80, align: 'center' });

  const signatureTop = height - 190;
  const signatureLeft = width / 2 - 130;
  if (document.signatureImage) {
    pdf.image(document.signatureImage, signatureLeft + 40, signatureTop, { fit: [180, 60], align: 'center' });
  }
  pdf
    .lineWidth(0.75)
    .strokeColor(INK)
    .moveTo(signatureLeft, signatureTop + 64)
    .lineTo(signatureLeft + 260, signatureTop + 64)
    .stroke();
  pdf.fillColor(INK).font('Helvetica-Bold').fontSize(11);
  pdf.text(document.signerName ?? '', signatureLeft, signatureTop + 70, { width: 260, align: 'center' });
  pdf.font('Helvetica').fontSize(10);
  pdf.text(document.signerRole ?? '', signatureLeft, signatureTop + 85, { width: 260, align: 'center' });

  const qrSize = 84;
  const qrTop = height - 56 - qrSize;
  pdf.image(qrCodePng(document.verifyUrl, { margin: 2, scale: 4 }), width - 56 - qrSize, qrTop, { width: qrSize });
  pdf.fillColor('#4b5563').fontSize(9);
  pdf.text(`Código de verificação: ${document.code}`, left, qrTop + 48, {
    width: textWidth - qrSize - 16,
    align: 'right',
  });
  pdf.text(`Confira a autenticidade em ${document.verifyUrl}`, left, qrTop + 62, {
    width: textWidth - qrSize - 16,
    align: 'right',
  });
  pdf.end();
  return done;
}
