import { randomUUID } from 'node:crypto';
import { currentTraceparent, prepared, type Knex } from '@ticketing/platform';
import type { ChargeMethod } from '../asaas/adapter.ts';
import type { Charge, ChargeState, ReviewReason } from '../domain/charge.ts';

interface ChargeRow {
  order_id: string;
  /** Null while the charge is reserved and its payment is being created at the provider. */
  payment_id: string | null;
  customer_id: string | null;
  method: ChargeMethod;
  value: string;
  status: ChargeState;
  provider_status: string | null;
  pix_qr_code: string | null;
  pix_payload: string | null;
  boleto_url: string | null;
  boleto_line: string | null;
  invoice_url: string | null;
  due_date: string;
  paid_at: Date | null;
  refund_requested_at: Date | null;
  refunded_at: Date | null;
  refund_lease_until: Date | null;
  creation_id: string | null;
  creation_expires_at: Date | null;
  delete_requested_at: Date | null;
  delete_lease_until: Date | null;
  review_reason: ReviewReason | null;
  customer_name: string | null;
  customer_email: string | null;
  order_number: string | null;
  installment_id: string | null;
  installment_count: number;
  refund_bank_details_url: string | null;
  traceparent: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Only for rows whose payment exists (the queries below ask for `payment_id is not null`). */
const toCharge = (row: ChargeRow): Charge => ({
  orderId: row.order_id,
  paymentId: row.payment_id!,
  customerId: row.customer_id!,
  method: row.method,
  value: row.value,
  status: row.status,
  providerStatus: row.provider_status!,
  pixQrCode: row.pix_qr_code,
  pixPayload: row.pix_payload,
  boletoUrl: row.boleto_url,
  boletoLine: row.boleto_line,
  invoiceUrl: row.invoice_url,
  dueDate: row.due_date,
  paidAt: row.paid_at,
  refundRequestedAt: row.refund_requested_at,
  refundedAt: row.refunded_at,
  deleteRequestedAt: row.delete_requested_at,
  reviewReason: row.review_reason,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  orderNumber: row.order_number,
  installmentId: row.installment_id,
  installmentCount: row.installment_count,
  refundBankDetailsUrl: row.refund_bank_details_url,
  traceparent: row.traceparent,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const charges = (db: Knex) => db<ChargeRow>('charges');
const created = (db: Knex) => charges(db).whereNotNull('payment_id');
const nowPlus = (db: Knex, ms: number) => db.raw(`now() + ? * interval '1 millisecond'`, [ms]);

/** The order's charge, once its payment exists at the provider. */
export async function findCharge(db: Knex, orderId: string): Promise<Charge | undefined> {
  const row = (await created(db).where({ order_id: orderId }).first()) as ChargeRow | undefined;
  return row && toCharge(row);
}

/** The charges of the orders named whose payments exist at the provider. */
export async function findCharges(db: Knex, orderIds: string[]): Promise<Charge[]> {
  const rows = (await created(db).whereIn('order_id', orderIds)) as ChargeRow[];
  return rows.map(toCharge);
}

/** The order's charge, locked until the transaction ends. */
export async function lockCharge(trx: Knex.Transaction, orderId: string): Promise<Charge | undefined> {
  const row = (await created(trx).where({ order_id: orderId }).forUpdate().first()) as ChargeRow | undefined;
  return row && toCharge(row);
}

/** The charge a provider payment belongs to, locked: its own payment, or another installment of its plan. */
export async function lockChargeOfPayment(
  trx: Knex.Transaction,
  payment: { id: string; installment?: string | null },
): Promise<Charge | undefined> {
  const row = (await charges(trx)
    .where({ payment_id: payment.id })
    .modify((query) => {
      if (payment.installment) query.orWhere({ installment_id: payment.installment });
    })
    .forUpdate()
    .first()) as ChargeRow | undefined;
  return row && toCharge(row);
}

/** Whether the order's charge is reserved and its payment is still being created. */
export async function isBeingCreated(db: Knex, orderId: string): Promise<boolean> {
  return Boolean(await charges(db).where({ order_id: orderId }).whereNull('payment_id').first('order_id'));
}

export interface ChargeReservation {
  orderId: string;
  method: ChargeMethod;
  value: string;
  dueDate: string;
  customerName: string;
  customerEmail: string;
  orderNumber: string | null;
  installmentCount: number;
}

export type Creation =
  | { kind: 'claimed'; creationId: string; firstAttempt: boolean }
  | { kind: 'created'; charge: Charge }
  | { kind: 'in_progress' };

/**
 * Reserves the order's charge for this caller, committed at once, so the provider is called with no transaction
 * open. One statement decides: a new order (its first attempt), or a reservation whose holder ran out of time, is
 * claimed; otherwise the charge already exists or someone else is creating it.
 */
export async function claimCreation(db: Knex, reservation: ChargeReservation, leaseMs: number): Promise<Creation> {
  const creationId = randomUUID();
  const claimed = await db
    .raw(
      `insert into charges (order_id, method, value, due_date, customer_name, customer_email, order_number,
                            installment_count, creation_id, creation_expires_at, traceparent)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, now() + ? * interval '1 millisecond', ?)
     on conflict (order_id) do update
       set method = excluded.method, value = excluded.value, due_date = excluded.due_date,
           customer_name = excluded.customer_name, customer_email = excluded.customer_email,
           order_number = excluded.order_number, installment_count = excluded.installment_count,
           creation_id = excluded.creation_id, creation_expires_at = excluded.creation_expires_at,
           traceparent = excluded.traceparent, updated_at = now()
       where charges.payment_id is null and charges.creation_expires_at < now()
     returning (xmax = 0) as inserted`,
      [
        reservation.orderId,
        reservation.method,
        reservation.value,
        reservation.dueDate,
        reservation.customerName,
        reservation.customerEmail,
        reservation.orderNumber,
        reservation.installmentCount,
        creationId,
        leaseMs,
        currentTraceparent() ?? null,
      ],
    )
    .options(prepared('payments.claim-creation'));
  // A row inserted now (xmax 0, where a taken-over one was updated) was never reserved before.
  if (claimed.rows.length === 1) return { kind: 'claimed', creationId, firstAttempt: claimed.rows[0].inserted };
  const charge = await findCharge(db, reservation.orderId);
  return charge ? { kind: 'created', charge } : { kind: 'in_progress' };
}

export type ProviderFields = Pick<
  Charge,
  | 'paymentId'
  | 'customerId'
  | 'providerStatus'
  | 'pixQrCode'
  | 'pixPayload'
  | 'boletoUrl'
  | 'boletoLine'
  | 'invoiceUrl'
  | 'installmentId'
>;

/** Records the provider's payment on the reservation this caller holds; undefined when it lost the reservation. */
export async function completeCreation(
  db: Knex,
  orderId: string,
  creationId: string,
  provider: ProviderFields,
): Promise<Charge | undefined> {
  const [row] = (await charges(db)
    .where({ order_id: orderId, creation_id: creationId })
    .whereNull('payment_id')
    .update({
      payment_id: provider.paymentId,
      customer_id: provider.customerId,
      provider_status: provider.providerStatus,
      pix_qr_code: provider.pixQrCode,
      pix_payload: provider.pixPayload,
      boleto_url: provider.boletoUrl,
      boleto_line: provider.boletoLine,
      invoice_url: provider.invoiceUrl,
      installment_id: provider.installmentId,
      creation_id: null,
      creation_expires_at: null,
      updated_at: db.fn.now() as unknown as Date,
    })
    .returning('*')) as ChargeRow[];
  return row && toCharge(row);
}

/** Gives the reservation up after the provider refused or did not answer: the next request starts afresh. */
export async function abandonCreation(db: Knex, orderId: string, creationId: string): Promise<void> {
  await charges(db).where({ order_id: orderId, creation_id: creationId }).whereNull('payment_id').delete();
}

/**
 * Notes that the order no longer wants its open charge (pending or overdue, created or still being created);
 * undefined when there is none or the deletion was already asked for.
 */
export async function requestDeletion(
  trx: Knex.Transaction,
  orderId: string,
): Promise<{ orderId: string } | undefined> {
  const [row] = (await charges(trx)
    .where({ order_id: orderId })
    .whereIn('status', ['pending', 'overdue'])
    .whereNull('delete_requested_at')
    .update({ delete_requested_at: trx.fn.now() as unknown as Date, updated_at: trx.fn.now() as unknown as Date })
    .returning('order_id')) as Pick<ChargeRow, 'order_id'>[];
  return row && { orderId: row.order_id };
}

/**
 * Takes up to `limit` charges whose deletion is due, each for `leaseMs`: replicas skip each other's, and a charge
 * whose deletion failed comes back once its lease runs out.
 */
export async function claimDeletions(db: Knex, leaseMs: number, limit: number): Promise<Charge[]> {
  const due = created(db)
    .select('order_id')
    .whereNotNull('delete_requested_at')
    .whereIn('status', ['pending', 'overdue'])
    .where((query) => query.whereNull('delete_lease_until').orWhere('delete_lease_until', '<', db.fn.now()))
    .orderBy('delete_requested_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const rows = (await charges(db)
    .whereIn('order_id', due)
    .update({ delete_lease_until: nowPlus(db, leaseMs) as unknown as Date })
    .returning('*')) as ChargeRow[];
  return rows.map(toCharge);
}

/** Hands deletions that failed back to the next round. */
export async function releaseDeletions(db: Knex, orderIds: string[]): Promise<void> {
  if (orderIds.length > 0) await charges(db).whereIn('order_id', orderIds).update({ delete_lease_until: null });
}

/**
 * Takes the refund of a paid charge for `leaseMs`, noting when it was first asked for; undefined when the charge is
 * not paid, its refund already waits for the payer's bank details, or another request holds the refund (a holder
 * that vanished loses it once the lease runs out).
 */
export async function claimRefund(db: Knex, orderId: string, leaseMs: number): Promise<Charge | undefined> {
  const [row] = (await created(db)
    .where({ order_id: orderId, status: 'paid' })
    .whereNull('refund_bank_details_url')
    .where((query) => query.whereNull('refund_lease_until').orWhere('refund_lease_until', '<', db.fn.now()))
    .update({
      refund_lease_until: nowPlus(db, leaseMs) as unknown as Date,
      refund_requested_at: db.raw('coalesce(refund_requested_at, now())') as unknown as Date,
      updated_at: db.fn.now() as unknown as Date,
    })
    .returning('*')) as ChargeRow[];
  return row && toCharge(row);
}

/** Hands a refund the provider did not do back to the next request. */
export async function releaseRefund(db: Knex, orderId: string): Promise<void> {
  await charges(db).where({ order_id: orderId }).update({ refund_lease_until: null });
}

/** Keeps the page where a boleto's payer gives the bank account, and hands the refund claim back. */
export async function awaitBankDetails(db: Knex, orderId: string, url: string): Promise<Charge> {
  const [row] = (await charges(db)
    .where({ order_id: orderId })
    .update({ refund_bank_details_url: url, refund_lease_until: null, updated_at: db.fn.now() as unknown as Date })
    .returning('*')) as ChargeRow[];
  return toCharge(row!);
}

export interface ChargeChange {
  status?: ChargeState;
  providerStatus?: string;
  paidAt?: Date;
  refundRequestedAt?: Date;
  refundedAt?: Date;
  reviewReason?: ReviewReason;
}

export async function updateCharge(trx: Knex.Transaction, orderId: string, change: ChargeChange): Promise<Charge> {
  const fields: Partial<ChargeRow> = {};
  if (change.status) fields.status = change.status;
  if (change.providerStatus) fields.provider_status = change.providerStatus;
  if (change.paidAt) fields.paid_at = change.paidAt;
  if (change.refundRequestedAt) fields.refund_requested_at = change.refundRequestedAt;
  if (change.refundedAt) fields.refunded_at = change.refundedAt;
  if (change.reviewReason) fields.review_reason = change.reviewReason;
  const [row] = (await trx<ChargeRow>('charges')
    .where({ order_id: orderId })
    .update({ ...fields, updated_at: trx.fn.now() as unknown as Date })
    .returning('*')) as ChargeRow[];
  return toCharge(row!);
}
