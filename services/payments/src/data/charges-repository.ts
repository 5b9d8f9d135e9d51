import type { Knex } from '@ticketing/platform';
import type { ChargeMethod } from '../asaas/adapter.ts';
import type { Charge, ChargeState } from '../domain/charge.ts';

interface ChargeRow {
  order_id: string;
  payment_id: string;
  customer_id: string;
  method: ChargeMethod;
  value: string;
  status: ChargeState;
  provider_status: string;
  pix_qr_code: string | null;
  pix_payload: string | null;
  boleto_url: string | null;
  boleto_line: string | null;
  invoice_url: string | null;
  due_date: string;
  paid_at: Date | null;
  refund_requested_at: Date | null;
  refunded_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toCharge = (row: ChargeRow): Charge => ({
  orderId: row.order_id,
  paymentId: row.payment_id,
  customerId: row.customer_id,
  method: row.method,
  value: row.value,
  status: row.status,
  providerStatus: row.provider_status,
  pixQrCode: row.pix_qr_code,
  pixPayload: row.pix_payload,
  boletoUrl: row.boleto_url,
  boletoLine: row.boleto_line,
  invoiceUrl: row.invoice_url,
  dueDate: row.due_date,
  paidAt: row.paid_at,
  refundRequestedAt: row.refund_requested_at,
  refundedAt: row.refunded_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type NewCharge = Pick<
  Charge,
  | 'orderId'
  | 'paymentId'
  | 'customerId'
  | 'method'
  | 'value'
  | 'providerStatus'
  | 'pixQrCode'
  | 'pixPayload'
  | 'boletoUrl'
  | 'boletoLine'
  | 'invoiceUrl'
  | 'dueDate'
>;

/**
 * Serialises the creation of an order's charge: held by the create until it commits, and taken by whoever must
 * see the charge the provider already knows about (a notification that arrives while it is being stored).
 */
export async function lockOrderCharges(trx: Knex.Transaction, orderId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`charge:${orderId}`]);
}

export async function findCharge(db: Knex, orderId: string): Promise<Charge | undefined> {
  const row = (await db<ChargeRow>('charges').where({ order_id: orderId }).first()) as ChargeRow | undefined;
  return row && toCharge(row);
}

/** The order's charge, locked until the transaction ends. */
export async function lockCharge(trx: Knex.Transaction, orderId: string): Promise<Charge | undefined> {
  const row = (await trx<ChargeRow>('charges').where({ order_id: orderId }).forUpdate().first()) as
    ChargeRow | undefined;
  return row && toCharge(row);
}

/** The charge a provider payment belongs to (by its id, else by the order id it carries), locked. */
export async function lockChargeOfPayment(
  trx: Knex.Transaction,
  paymentId: string,
  orderId: string | null,
): Promise<Charge | undefined> {
  const byPayment = (await trx<ChargeRow>('charges').where({ payment_id: paymentId }).forUpdate().first()) as
    ChargeRow | undefined;
  if (byPayment) return toCharge(byPayment);
  return orderId ? lockCharge(trx, orderId) : undefined;
}

export async function insertCharge(trx: Knex.Transaction, charge: NewCharge): Promise<Charge> {
  await trx('charges')
    .insert({
      order_id: charge.orderId,
      payment_id: charge.paymentId,
      customer_id: charge.customerId,
      method: charge.method,
      value: charge.value,
      status: 'pending',
      provider_status: charge.providerStatus,
      pix_qr_code: charge.pixQrCode,
      pix_payload: charge.pixPayload,
      boleto_url: charge.boletoUrl,
      boleto_line: charge.boletoLine,
      invoice_url: charge.invoiceUrl,
      due_date: charge.dueDate,
    })
    .onConflict('order_id')
    .ignore();
  return (await findCharge(trx, charge.orderId))!;
}

export interface ChargeChange {
  status?: ChargeState;
  providerStatus?: string;
  paidAt?: Date;
  refundRequestedAt?: Date;
  refundedAt?: Date;
}

export async function updateCharge(trx: Knex.Transaction, orderId: string, change: ChargeChange): Promise<Charge> {
  const fields: Partial<ChargeRow> = {};
  if (change.status) fields.status = change.status;
  if (change.providerStatus) fields.provider_status = change.providerStatus;
  if (change.paidAt) fields.paid_at = change.paidAt;
  if (change.refundRequestedAt) fields.refund_requested_at = change.refundRequestedAt;
  if (change.refundedAt) fields.refunded_at = change.refundedAt;
  const [row] = (await trx<ChargeRow>('charges')
    .where({ order_id: orderId })
    .update({ ...fields, updated_at: trx.fn.now() as unknown as Date })
    .returning('*')) as ChargeRow[];
  return toCharge(row!);
}
