import { readBody } from './api.ts';
import { brl, escape, layout, sendHtml, type PageHandler } from './pages.ts';
import type { PaymentLedger } from './payments.ts';
import type { Store } from './store.ts';
import type { SandboxPayment } from './types.ts';

/** The bank account a boleto's payer gives for the refund: field name and label. */
const FIELDS = [
  ['titular', 'Titular da conta'],
  ['cpfCnpj', 'CPF/CNPJ do titular'],
  ['banco', 'Banco'],
  ['agencia', 'Agência'],
  ['conta', 'Conta'],
] as const;

type Account = Partial<Record<(typeof FIELDS)[number][0], string>>;

function form(payment: SandboxPayment, action: string, account: Account, error?: string): string {
  const inputs = FIELDS.map(
    ([name, label]) => `<label>${label}<input name="${name}" value="${escape(account[name] ?? '')}" required></label>`,
  ).join('\n');
  return layout(
    'Estorno de boleto',
    `<h1>Estorno de boleto</h1>
<p>Informe seus dados bancários para receber o reembolso de ${brl.format(payment.value)}.</p>
${error ? `<p class="erro" role="alert">${escape(error)}</p>` : ''}
<form method="post" action="${escape(action)}">
${inputs}
<button type="submit">Solicitar reembolso</button></form>`,
  );
}

const done = (payment: SandboxPayment) =>
  layout(
    'Estorno de boleto',
    `<h1>Reembolso confirmado</h1>
<p>O reembolso de ${brl.format(payment.value)} foi feito na conta informada.</p>`,
  );

/** The form's fields, sent as a browser does (urlencoded) or as JSON. */
async function readAccount(req: Parameters<PageHandler>[0]): Promise<Account> {
  const raw = await readBody(req);
  let entries: Record<string, unknown> = {};
  if (req.headers['content-type']?.includes('application/json')) {
    try {
      entries = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      entries = {};
    }
  } else {
    entries = Object.fromEntries(new URLSearchParams(raw));
  }
  return Object.fromEntries(
    FIELDS.map(([name]) => [name, typeof entries[name] === 'string' ? (entries[name] as string).trim() : '']),
  );
}

/**
 * `/estorno-boleto/:token`, the `requestUrl` of a boleto's refund: the payer gives a bank account, and the refund is
 * done (REFUNDED, PAYMENT_REFUNDED). A missing field shows the form again with the error.
 */
export function bankSlipRefundPage(store: Store, ledger: PaymentLedger): PageHandler {
  return async function handleRefundPage(req, res, url) {
    const token = decodeURIComponent(url.pathname.slice('/estorno-boleto/'.length));
    const paymentId = store.bankSlipRefunds.byToken.get(token);
    const payment = paymentId ? store.payments.get(paymentId) : undefined;
    if (!payment)
      return sendHtml(res, 404, layout('Estorno de boleto', '<h1>Solicitação de estorno não encontrada</h1>'));
    if (payment.status === 'REFUNDED') {
      await readBody(req);
      return sendHtml(res, 200, done(payment));
    }
    if (!ledger.isPaid(payment)) {
      await readBody(req);
      return sendHtml(res, 409, layout('Estorno de boleto', '<h1>Esta cobrança não pode mais ser estornada.</h1>'));
    }
    if (req.method === 'GET') return sendHtml(res, 200, form(payment, url.pathname, {}));
    if (req.method !== 'POST') return sendHtml(res, 405, layout('Estorno de boleto', '<h1>Método não permitido</h1>'));
    const account = await readAccount(req);
    const missing = FIELDS.filter(([name]) => !account[name]).map(([, label]) => label);
    if (missing.length > 0) {
      return sendHtml(res, 400, form(payment, url.pathname, account, `Preencha: ${missing.join(', ')}.`));
    }
    ledger.refunded(payment);
    sendHtml(res, 200, done(payment));
  };
}
