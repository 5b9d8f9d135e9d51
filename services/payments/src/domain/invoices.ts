import { AppError, type Knex } from '@ticketing/platform';
import { toCents, type InvoiceStatus } from '@ticketing/proto';
import { ProviderRefusal } from '../asaas/adapter.ts';
import type { AsaasInvoice, NewInvoice } from '../asaas/types.ts';
import { findCharge } from '../data/charges-repository.ts';
import { readFiscalSettings, type StoredFiscalSettings } from '../data/fiscal-settings-repository.ts';
import {
  claimInvoiceWork,
  insertInvoice,
  listInvoices,
  lockInvoice,
  releaseInvoices,
  requestCancellation,
  updateInvoice,
  type Invoice,
  type InvoiceWork,
} from '../data/invoices-repository.ts';
import type { Charge, PaymentsDeps } from './charge.ts';
import { workThroughClaims } from './claimed-work.ts';

/**
 * Where a nota fiscal stands. It only moves forward: scheduled → authorized or error → cancelling → cancelled, so a
 * late notification never brings a cancelled note back.
 */
const INVOICE_RANK: Record<InvoiceStatus, number> = {
  scheduled: 0,
  authorized: 1,
  error: 1,
  cancelling: 2,
  cancelled: 3,
};

/** The provider's invoice statuses the platform acts on (CANCELLATION_DENIED leaves the note where it was). */
const STATUS_OF: Record<string, InvoiceStatus> = {
  SCHEDULED: 'scheduled',
  SYNCHRONIZED: 'scheduled',
  AUTHORIZED: 'authorized',
  ERROR: 'error',
  PROCESSING_CANCELLATION: 'cancelling',
  CANCELED: 'cancelled',
};

type InvoiceDeps = Pick<PaymentsDeps, 'outbox' | 'logger' | 'metrics' | 'invoiceWork'>;

/** YYYY-MM-DD of an instant in Brasília: the day the city counts the service as provided. */
const brasiliaDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);

/**
 * A charge just paid gets its nota fiscal, in the payment's transaction, when the fiscal settings are enabled: the
 * note is written here and scheduled at the provider by the invoice job once this transaction commits.
 */
export async function requestInvoice(deps: InvoiceDeps, trx: Knex.Transaction, charge: Charge): Promise<void> {
  const settings = await readFiscalSettings(trx);
  if (!settings?.enabled) return;
  const effectiveDate = brasiliaDay(charge.paidAt ?? new Date());
  if (!(await insertInvoice(trx, { orderId: charge.orderId, value: charge.value, effectiveDate }))) return;
  deps.logger.info({ orderId: charge.orderId, effectiveDate }, 'nota fiscal requested');
  wakeAfterCommit(deps, trx);
}

/**
 * Money that went back (refund or chargeback) cancels the order's nota fiscal: noted here, asked of the provider by
 * the invoice job.
 */
export async function requestInvoiceCancellation(
  deps: InvoiceDeps,
  trx: Knex.Transaction,
  orderId: string,
): Promise<void> {
  if (!(await requestCancellation(trx, orderId))) return;
  deps.logger.info({ orderId }, 'nota fiscal cancellation requested');
  wakeAfterCommit(deps, trx);
}

function wakeAfterCommit(deps: InvoiceDeps, trx: Knex.Transaction) {
  trx.executionPromise.then(
    () => deps.invoiceWork.wake(),
    () => {},
  );
}

/**
 * Applies what the provider shows of the note (its id the first time, its status forward only) and publishes
 * `invoice.changed` for each change, in the caller's transaction with the note locked. An error is counted and
 * logged for a person to look at.
 */
export async function applyInvoiceView(
  deps: InvoiceDeps,
  trx: Knex.Transaction,
  invoice: Invoice,
  charge: Charge,
  provider: AsaasInvoice,
): Promise<'applied' | 'stale' | 'unchanged'> {
  const log = { orderId: invoice.orderId, invoiceId: provider.id, providerStatus: provider.status };
  const target = STATUS_OF[provider.status];
  if (provider.status === 'CANCELLATION_DENIED')
    fail(deps, log, provider.statusDescription ?? null, 'cancellation denied');
  const moves = target !== undefined && INVOICE_RANK[target] > INVOICE_RANK[invoice.status];
  // The provider's id is recorded the first time the note is seen there, which is itself news (`scheduled`).
  const firstSeen = invoice.invoiceId === null;
  if (!moves && !firstSeen) return target === undefined ? 'unchanged' : 'stale';
  const status = moves ? target : invoice.status;
  const updated = await updateInvoice(trx, invoice.orderId, {
    invoiceId: provider.id,
    status,
    pdfUrl: provider.pdfUrl ?? invoice.pdfUrl,
    reason: status === 'error' ? (provider.statusDescription ?? null) : invoice.reason,
  });
  await publishChange(deps, trx, updated, charge);
  if (moves && status === 'error') fail(deps, log, updated.reason, 'nota fiscal refused');
  else deps.logger.info({ ...log, status }, 'nota fiscal changed');
  return 'applied';
}

async function publishChange(deps: InvoiceDeps, trx: Knex.Transaction, invoice: Invoice, charge: Charge) {
  await deps.outbox.add(trx, 'invoice.changed', invoice.orderId, {
    orderId: invoice.orderId,
    orderNumber: charge.orderNumber,
    invoiceId: invoice.invoiceId!,
    status: invoice.status,
    pdfUrl: invoice.pdfUrl,
    reason: invoice.reason,
    recipient: { name: charge.customerName ?? '', email: charge.customerEmail ?? '' },
    at: new Date().toISOString(),
  });
}

function fail(deps: InvoiceDeps, log: Record<string, unknown>, reason: string | null, message: string) {
  deps.metrics.invoicesFailed.inc();
  deps.logger.error({ ...log, reason }, message);
}

/** What the provider is asked to issue: the charge's value, on the payment's day, as the settings say. */
function invoiceRequest(charge: Charge, invoice: Invoice, settings: StoredFiscalSettings): NewInvoice {
  const municipalService = settings.municipalServiceId
    ? { municipalServiceId: settings.municipalServiceId }
    : { municipalServiceCode: settings.municipalServiceCode! };
  return {
    payment: charge.paymentId,
    serviceDescription: settings.serviceDescription,
    observations: `Pedido ${charge.orderNumber ?? charge.orderId}`,
    value: toCents(invoice.value) / 100,
    deductions: toCents(settings.deductions) / 100,
    effectiveDate: invoice.effectiveDate,
    ...municipalService,
    ...(settings.municipalServiceName ? { municipalServiceName: settings.municipalServiceName } : {}),
    taxes: { retainIss: settings.retainIss, iss: settings.issRate, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 },
    externalReference: charge.orderId,
  };
}

/**
 * One round of the invoice job: notes to schedule are asked of the provider (looked up by the order before being
 * created again), then notes whose order's money went back are cancelled. No transaction is open while the provider
 * is asked; its answer is applied in a short one. Work that failed is tried again in the next round.
 */
export function invoiceRound(deps: PaymentsDeps) {
  return async (signal: AbortSignal) => {
    for (const work of ['schedule', 'cancel'] as InvoiceWork[]) {
      if (signal.aborted) return;
      await workThroughClaims(signal, {
        claim: (batch) => claimInvoiceWork(deps.db, work, deps.asaas.longestOperationMs, batch),
        work: (invoice) => (work === 'schedule' ? schedule(deps, invoice) : cancel(deps, invoice)),
        failed: (invoice, error) =>
          deps.logger.warn(
            { err: error, orderId: invoice.orderId, work },
            'nota fiscal work failed; it is tried again later',
          ),
        release: (orderIds) => releaseInvoices(deps.db, orderIds),
      });
    }
  };
}

async function schedule(deps: PaymentsDeps, invoice: Invoice): Promise<void> {
  const charge = (await findCharge(deps.db, invoice.orderId))!;
  const settings = await readFiscalSettings(deps.db);
  if (!settings) throw new Error('fiscal settings missing for a requested nota fiscal');
  let provider: AsaasInvoice;
  try {
    provider = await deps.asaas.scheduleInvoice(invoiceRequest(charge, invoice, settings));
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    // Refused before it had an id (its fields, the account's fiscal registration): a person must look at it.
    await deps.db.transaction(async (trx) => {
      const locked = (await lockInvoice(trx, invoice.orderId))!;
      if (locked.invoiceId === null)
        await updateInvoice(trx, invoice.orderId, { status: 'error', reason: error.reason });
    });
    fail(deps, { orderId: invoice.orderId }, error.reason, 'nota fiscal refused');
    return;
  }
  await applyToLocked(deps, invoice.orderId, charge, provider);
}

async function cancel(deps: PaymentsDeps, invoice: Invoice): Promise<void> {
  const charge = (await findCharge(deps.db, invoice.orderId))!;
  // A note the provider never issued (no id, or refused) has nothing to cancel there.
  if (invoice.invoiceId === null || invoice.status === 'error') {
    await deps.db.transaction(async (trx) => {
      const locked = (await lockInvoice(trx, invoice.orderId))!;
      const closed = await updateInvoice(trx, invoice.orderId, { status: 'cancelled' });
      if (locked.invoiceId !== null) await publishChange(deps, trx, closed, charge);
    });
    deps.logger.info({ orderId: invoice.orderId }, 'nota fiscal closed as cancelled');
    return;
  }
  let provider: AsaasInvoice;
  try {
    provider = await deps.asaas.cancelInvoice(invoice.invoiceId);
  } catch (error) {
    if (!(error instanceof AppError && error.status === 422)) throw error;
    // Refused: a person looks at it; the claim is kept, so it is asked again only once it runs out.
    fail(deps, { orderId: invoice.orderId, invoiceId: invoice.invoiceId }, error.message, 'nota fiscal not cancelled');
    return;
  }
  await applyToLocked(deps, invoice.orderId, charge, provider);
}

async function applyToLocked(deps: PaymentsDeps, orderId: string, charge: Charge, provider: AsaasInvoice) {
  await deps.db.transaction(async (trx) => {
    const locked = (await lockInvoice(trx, orderId))!;
    const result = await applyInvoiceView(deps, trx, locked, charge, provider);
    // Nothing new (a repeated answer): the claim is handed back all the same.
    if (result !== 'applied') await updateInvoice(trx, orderId, {});
  });
}

/** The most notes one list shows (the back office's list of notes that need a person). */
const LIST_LIMIT = 200;

/** Notes in a status, newest first. */
export const invoicesIn = (deps: PaymentsDeps, status: InvoiceStatus) => listInvoices(deps.db, status, LIST_LIMIT);
