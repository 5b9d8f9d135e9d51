import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalid, notFound } from './api-error.ts';
import { nextId, type Route, type Store } from './store.ts';
import type { SandboxInvoice } from './types.ts';
import { brasiliaToday, isDate, listOf } from './values.ts';
import type { Webhooks } from './webhooks.ts';

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null;
const amount = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function taxes(body: Record<string, unknown>): SandboxInvoice['taxes'] {
  const given = (typeof body.taxes === 'object' && body.taxes !== null ? body.taxes : {}) as Record<string, unknown>;
  const rate = (name: string) => {
    const value = given[name] ?? 0;
    if (amount(value) === null || (value as number) < 0) {
      throw invalid('invalid_taxes', `O imposto ${name} deve ser um número maior ou igual a zero.`);
    }
    return value as number;
  };
  return {
    retainIss: given.retainIss === true,
    iss: rate('iss'),
    cofins: rate('cofins'),
    csll: rate('csll'),
    inss: rate('inss'),
    ir: rate('ir'),
    pis: rate('pis'),
  };
}

/**
 * Notas fiscais (NFS-e) of payments: asked for SCHEDULED, then, `delayMs` later, AUTHORIZED by the city (number, PDF,
 * XML) or in ERROR when the store's `invoiceErrors` gave the invoice a reason; cancelled on request. Each change is
 * an `INVOICE_*` webhook.
 */
export function invoiceRoutes(
  store: Store,
  { emitInvoice }: Pick<Webhooks, 'emitInvoice'>,
  { delayMs, closing }: { delayMs: number; closing: AbortSignal },
): Route[] {
  let issued = 0;

  function find(id: string): SandboxInvoice {
    const found = store.invoices.get(id);
    if (!found) throw notFound();
    return found;
  }

  function decide(invoice: SandboxInvoice, error: string | undefined): void {
    if (invoice.status !== 'SCHEDULED') return; // cancelled meanwhile
    if (error) {
      Object.assign(invoice, { status: 'ERROR', statusDescription: error });
      return emitInvoice('INVOICE_ERROR', invoice);
    }
    const number = String(++issued).padStart(6, '0');
    Object.assign(invoice, {
      status: 'AUTHORIZED',
      number,
      rpsSerie: 'E',
      rpsNumber: number,
      validationCode: randomBytes(4).toString('hex').toUpperCase(),
      pdfUrl: `${store.publicUrl}/nfse/${invoice.id}.pdf`,
      xmlUrl: `${store.publicUrl}/nfse/${invoice.id}.xml`,
    });
    emitInvoice('INVOICE_AUTHORIZED', invoice);
  }

  function create(body: Record<string, unknown>): SandboxInvoice {
    if (body.payment === undefined || body.payment === null || body.payment === '') {
      throw invalid('invalid_payment', 'Informe a cobrança da nota fiscal.');
    }
    const payment = typeof body.payment === 'string' ? store.payments.get(body.payment) : undefined;
    if (!payment || payment.deleted) throw invalid('invalid_payment', 'A cobrança informada não foi encontrada.');
    const municipalServiceId = text(body.municipalServiceId);
    const municipalServiceCode = text(body.municipalServiceCode);
    if (!municipalServiceId && !municipalServiceCode) {
      throw invalid(
        'invalid_municipalService',
        'Informe o serviço municipal (municipalServiceId ou municipalServiceCode).',
      );
    }
    const value = body.value === undefined ? payment.value : amount(body.value);
    if (value === null || value <= 0) throw invalid('invalid_value', 'O valor da nota fiscal deve ser maior que zero.');
    const deductions = body.deductions === undefined ? 0 : amount(body.deductions);
    if (deductions === null || deductions < 0) {
      throw invalid('invalid_deductions', 'As deduções devem ser um valor maior ou igual a zero.');
    }
    const effectiveDate = body.effectiveDate === undefined ? brasiliaToday() : body.effectiveDate;
    if (!isDate(effectiveDate)) throw invalid('invalid_effectiveDate', 'A data de emissão informada é inválida.');
    const invoice: SandboxInvoice = {
      object: 'invoice',
      id: nextId(store, 'inv'),
      status: 'SCHEDULED',
      customer: payment.customer,
      payment: payment.id,
      installment: payment.installment ?? null,
      type: 'NFS-e',
      statusDescription: null,
      serviceDescription: text(body.serviceDescription),
      observations: text(body.observations),
      value,
      deductions,
      effectiveDate,
      externalReference: text(body.externalReference),
      municipalServiceId,
      municipalServiceCode,
      municipalServiceName: text(body.municipalServiceName),
      taxes: taxes(body),
      pdfUrl: null,
      xmlUrl: null,
      number: null,
      rpsSerie: null,
      rpsNumber: null,
      validationCode: null,
      dateCreated: brasiliaToday(),
    };
    store.invoices.set(invoice.id, invoice);
    emitInvoice('INVOICE_CREATED', invoice);
    const error = store.faults.invoiceErrors.shift();
    void sleep(delayMs, undefined, { signal: closing }).then(
      () => decide(invoice, error),
      () => {}, // the sandbox closed first
    );
    return invoice;
  }

  function cancel(id: string): SandboxInvoice {
    const invoice = find(id);
    if (invoice.status === 'CANCELED') return invoice;
    invoice.status = 'PROCESSING_CANCELLATION';
    emitInvoice('INVOICE_PROCESSING_CANCELLATION', invoice);
    invoice.status = 'CANCELED';
    emitInvoice('INVOICE_CANCELED', invoice);
    return invoice;
  }

  return [
    ['POST', /^\/invoices$/, (_, __, body) => create(body)],
    [
      'GET',
      /^\/invoices$/,
      (_, query) =>
        listOf(
          [...store.invoices.values()].filter(
            (invoice) =>
              (!query.payment || invoice.payment === query.payment) &&
              (!query.externalReference || invoice.externalReference === query.externalReference) &&
              (!query.status || invoice.status === query.status),
          ),
          query,
        ),
    ],
    ['GET', /^\/invoices\/([^/]+)$/, ([id]) => find(id!)],
    ['POST', /^\/invoices\/([^/]+)\/cancel$/, ([id]) => cancel(id!)],
  ];
}
