import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.ts';
import { readBody } from './api.ts';
import type { PaymentLedger } from './payments.ts';
import type { Store } from './store.ts';
import type { SandboxPayment } from './types.ts';

export const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

export const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const dateBr = (date: string) => date.split('-').reverse().join('/');

const STATUS_TEXT: Record<string, string> = {
  PENDING: 'Aguardando pagamento',
  OVERDUE: 'Vencida',
  RECEIVED: 'Pagamento recebido',
  CONFIRMED: 'Pagamento confirmado',
  REFUNDED: 'Estornada',
};

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1f2937}
.aviso{background:#fef3c7;padding:.5rem 1rem;border-radius:.5rem}.erro{color:#b91c1c}label{display:block;margin:.5rem 0}input{display:block;width:100%;padding:.4rem;font-size:1rem}button{font-size:1.1rem;padding:.6rem 2rem;background:#0f766e;color:#fff;border:0;border-radius:.5rem;cursor:pointer}
code{word-break:break-all;font-size:1.05rem}</style></head>
<body><p class="aviso">Ambiente de testes: nenhum valor real é cobrado.</p>${body}</body></html>`;
}

function status(payment: SandboxPayment): string {
  return payment.deleted ? 'Cobrança removida' : (STATUS_TEXT[payment.status] ?? payment.status);
}

/** The hosted payment page (invoiceUrl): a "Pagar" button confirms the payment and sends the webhook. */
function invoicePage(payment: SandboxPayment): string {
  const payable = !payment.deleted && ['PENDING', 'OVERDUE'].includes(payment.status);
  const action = payable
    ? `<form method="post" action="/i/${encodeURIComponent(payment.id)}/pagar"><button type="submit">Pagar</button></form>`
    : `<p><strong>${escape(status(payment))}</strong></p>`;
  return layout(
    'Fatura',
    `<h1>Fatura ${escape(payment.invoiceNumber)}</h1>
<p>${escape(payment.description ?? '')}</p>
<dl><dt>Valor</dt><dd>${brl.format(payment.value)}</dd><dt>Vencimento</dt><dd>${dateBr(payment.dueDate)}</dd>
<dt>Situação</dt><dd>${escape(status(payment))}</dd></dl>${action}`,
  );
}

/** The bank slip page (bankSlipUrl) with its typeable line. */
function boletoPage(payment: SandboxPayment, line: string): string {
  const formatted = `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
  return layout(
    'Boleto',
    `<h1>Boleto bancário</h1>
<p>${escape(payment.description ?? '')}</p>
<dl><dt>Valor</dt><dd>${brl.format(payment.value)}</dd><dt>Vencimento</dt><dd>${dateBr(payment.dueDate)}</dd>
<dt>Situação</dt><dd>${escape(status(payment))}</dd></dl>
<p>Linha digitável:</p><p><code>${formatted}</code></p>`,
  );
}

/** A page outside the API: the request, its answer and its parsed address. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export function sendHtml(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(text);
}

/** The hosted pages: the invoice (`/i/:id`, whose "Pagar" posts to `/i/:id/pagar`) and the bank slip (`/b/:id`). */
export function pageHandler(store: Store, ledger: PaymentLedger): PageHandler {
  return async function handlePage(req, res, url) {
    const html = (status: number, text: string) => sendHtml(res, status, text);
    const invoice = /^\/i\/([^/]+)(\/pagar)?$/.exec(url.pathname);
    const slip = /^\/b\/([^/]+)$/.exec(url.pathname);
    const target = store.payments.get(decodeURIComponent((invoice ?? slip)?.[1] ?? ''));
    if (!target)
      return html(404, '<!doctype html><html lang="pt-BR"><body><h1>Cobrança não encontrada</h1></body></html>');
    if (invoice?.[2] && req.method === 'POST') {
      await readBody(req);
      try {
        ledger.confirm(target.id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
      res.writeHead(303, { location: `/i/${target.id}` });
      return void res.end();
    }
    if (req.method !== 'GET')
      return html(405, '<!doctype html><html lang="pt-BR"><body>Método não permitido</body></html>');
    if (invoice && !invoice[2]) return html(200, invoicePage(target));
    const boleto = store.slips.get(target.id);
    if (slip && boleto) return html(200, boletoPage(target, boleto.identificationField));
    return html(404, '<!doctype html><html lang="pt-BR"><body><h1>Boleto não encontrado</h1></body></html>');
  };
}
