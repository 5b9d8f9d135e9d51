import type { Knex } from '@ticketing/platform';
import { isUuid, type InvoiceStatus } from '@ticketing/proto';

interface InvoiceRow {
  order_id: string;
  invoice_id: string | null;
  status: InvoiceStatus;
  value: string;
  effective_date: string;
  pdf_url: string | null;
  reason: string | null;
  cancel_requested_at: Date | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An order's nota fiscal; `invoiceId` is null until the provider has it. */
export interface Invoice {
  orderId: string;
  invoiceId: string | null;
  status: InvoiceStatus;
  /** Decimal string with two places: the charge's value. */
  value: string;
  /** YYYY-MM-DD: the payment's day in Brasília. */
  effectiveDate: string;
  pdfUrl: string | null;
  reason: string | null;
  /** The order's money went back: the note is to be cancelled. */
  cancelRequestedAt: Date | null;
  updatedAt: Date;
}

const toInvoice = (row: InvoiceRow): Invoice => ({
  orderId: row.order_id,
  invoiceId: row.invoice_id,
  status: row.status,
  value: row.value,
  effectiveDate: row.effective_date,
  pdfUrl: row.pdf_url,
  reason: row.reason,
  cancelRequestedAt: row.cancel_requested_at,
  updatedAt: row.updated_at,
});

const invoices = (db: Knex) => db<InvoiceRow>('invoices');
const leaseFree = (db: Knex) => (query: Knex.QueryBuilder) =>
  query.whereNull('lease_until').orWhere('lease_until', '<', db.fn.now());

/** The order's nota fiscal to be scheduled; false when it already has one. */
export async function insertInvoice(
  trx: Knex.Transaction,
  invoice: { orderId: string; value: string; effectiveDate: string },
): Promise<boolean> {
  const inserted = await invoices(trx)
    .insert({ order_id: invoice.orderId, value: invoice.value, effective_date: invoice.effectiveDate })
    .onConflict('order_id')
    .ignore()
    .returning('order_id');
  return inserted.length === 1;
}

export async function lockInvoice(trx: Knex.Transaction, orderId: string): Promise<Invoice | undefined> {
  const row = (await invoices(trx).where({ order_id: orderId }).forUpdate().first()) as InvoiceRow | undefined;
  return row && toInvoice(row);
}

/** The note a provider invoice is, locked: by its id, or the order's note still waiting for it. */
export async function lockInvoiceOfProvider(
  trx: Knex.Transaction,
  provider: { id: string; externalReference?: string | null },
): Promise<Invoice | undefined> {
  const row = (await invoices(trx)
    .where({ invoice_id: provider.id })
    .modify((query) => {
      const orderId = provider.externalReference;
      if (orderId && isUuid(orderId))
        query.orWhere((waiting) => waiting.where({ order_id: orderId }).whereNull('invoice_id'));
    })
    .forUpdate()
    .first()) as InvoiceRow | undefined;
  return row && toInvoice(row);
}

export interface InvoiceChange {
  invoiceId?: string;
  status?: InvoiceStatus;
  pdfUrl?: string | null;
  reason?: string | null;
}

export async function updateInvoice(trx: Knex.Transaction, orderId: string, change: InvoiceChange): Promise<Invoice> {
  const fields: Partial<InvoiceRow> = { lease_until: null };
  if (change.invoiceId !== undefined) fields.invoice_id = change.invoiceId;
  if (change.status !== undefined) fields.status = change.status;
  if (change.pdfUrl !== undefined) fields.pdf_url = change.pdfUrl;
  if (change.reason !== undefined) fields.reason = change.reason;
  const [row] = (await invoices(trx)
    .where({ order_id: orderId })
    .update({ ...fields, updated_at: trx.fn.now() as unknown as Date })
    .returning('*')) as InvoiceRow[];
  return toInvoice(row!);
}

/** Notes that the order's note is to be cancelled; false when it is already cancelled or being cancelled. */
export async function requestCancellation(trx: Knex.Transaction, orderId: string): Promise<boolean> {
  const updated = await invoices(trx)
    .where({ order_id: orderId })
    .whereNull('cancel_requested_at')
    .whereNotIn('status', ['cancelling', 'cancelled'])
    .update({ cancel_requested_at: trx.fn.now() as unknown as Date, updated_at: trx.fn.now() as unknown as Date })
    .returning('order_id');
  return updated.length === 1;
}

export type InvoiceWork = 'schedule' | 'cancel';

/**
 * Takes up to `limit` notes with work due at the provider, each for `leaseMs` (replicas skip each other's; a note
 * whose work failed comes back once its lease runs out): to schedule, those without a provider invoice; to cancel,
 * those whose order's money went back and the provider has not been asked to cancel yet.
 */
export async function claimInvoiceWork(
  db: Knex,
  work: InvoiceWork,
  leaseMs: number,
  limit: number,
): Promise<Invoice[]> {
  const due = invoices(db)
    .select('order_id')
    .modify((query) => {
      if (work === 'schedule')
        query.whereNull('invoice_id').where({ status: 'scheduled' }).whereNull('cancel_requested_at');
      else query.whereNotNull('cancel_requested_at').whereIn('status', ['scheduled', 'authorized', 'error']);
    })
    .where(leaseFree(db))
    .orderBy('updated_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const rows = (await invoices(db)
    .whereIn('order_id', due)
    .update({ lease_until: db.raw(`now() + ? * interval '1 millisecond'`, [leaseMs]) as unknown as Date })
    .returning('*')) as InvoiceRow[];
  return rows.map(toInvoice);
}

/** Hands work that failed back to the next round. */
export async function releaseInvoices(db: Knex, orderIds: string[]): Promise<void> {
  if (orderIds.length > 0) await invoices(db).whereIn('order_id', orderIds).update({ lease_until: null });
}

export async function findInvoices(db: Knex, orderIds: string[]): Promise<Invoice[]> {
  return ((await invoices(db).whereIn('order_id', orderIds)) as InvoiceRow[]).map(toInvoice);
}

/** Notes in a status with their order's number, newest first (the back office's list). */
export async function listInvoices(
  db: Knex,
  status: InvoiceStatus,
  limit: number,
): Promise<(Invoice & { orderNumber: string | null })[]> {
  const rows = (await db('invoices')
    .join('charges', 'charges.order_id', 'invoices.order_id')
    .where('invoices.status', status)
    .orderBy('invoices.updated_at', 'desc')
    .limit(limit)
    .select('invoices.*', 'charges.order_number')) as (InvoiceRow & { order_number: string | null })[];
  return rows.map((row) => ({ ...toInvoice(row), orderNumber: row.order_number }));
}
