import type { Knex } from '@ticketing/platform';
import type { ErasedPerson, OrderStatus } from '@ticketing/proto';
import type { Order, PaymentMethod, RefundReason } from '../domain/order.ts';

interface OrderRow {
  id: string;
  order_number: string;
  user_id: string;
  event_id: string;
  courtesy_attendee_id: string | null;
  courtesy_link_id: string | null;
  cpf: string | null;
  status: OrderStatus;
  payment_method: PaymentMethod | null;
  amount: string;
  asaas_payment_id: string | null;
  pix_qr_code: string | null;
  pix_payload: string | null;
  boleto_url: string | null;
  invoice_url: string | null;
  expires_at: Date | null;
  paid_at: Date | null;
  qr_code_data: string | null;
  qr_code_used: boolean;
  qr_code_used_at: Date | null;
  event_title: string;
  event_date: Date;
  event_location: string;
  buyer_name: string;
  buyer_email: string;
  idempotency_key: string | null;
  refund_reason: RefundReason | null;
  refund_owed_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toOrder = (row: OrderRow): Order => ({
  id: row.id,
  orderNumber: row.order_number,
  userId: row.user_id,
  eventId: row.event_id,
  courtesyAttendeeId: row.courtesy_attendee_id,
  courtesyLinkId: row.courtesy_link_id,
  cpf: row.cpf,
  status: row.status,
  paymentMethod: row.payment_method,
  amount: row.amount,
  asaasPaymentId: row.asaas_payment_id,
  pixQrCode: row.pix_qr_code,
  pixPayload: row.pix_payload,
  boletoUrl: row.boleto_url,
  invoiceUrl: row.invoice_url,
  expiresAt: row.expires_at,
  paidAt: row.paid_at,
  qrCodeData: row.qr_code_data,
  qrCodeUsed: row.qr_code_used,
  qrCodeUsedAt: row.qr_code_used_at,
  event: { title: row.event_title, date: row.event_date, location: row.event_location },
  buyer: { name: row.buyer_name, email: row.buyer_email },
  idempotencyKey: row.idempotency_key,
  refundReason: row.refund_reason,
  refundOwedSince: row.refund_owed_since,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const one = (rows: OrderRow[]): Order | undefined => (rows[0] ? toOrder(rows[0]) : undefined);

export interface NewOrder {
  userId: string;
  eventId: string;
  cpf: string;
  paymentMethod: PaymentMethod;
  amount: string;
  expiresAt: Date;
  event: { title: string; date: Date; location: string };
  buyer: { name: string; email: string };
  idempotencyKey: string | null;
  /** The promotional courtesy link whose price the order has, if any. */
  courtesyLinkId: string | null;
}

/** A unique index refused the row: here, another pending order of the buyer for the event, or a used key. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '23505';
}

export async function insertOrder(db: Knex, order: NewOrder): Promise<Order> {
  const rows = (await db<OrderRow>('orders')
    .insert({
      user_id: order.userId,
      event_id: order.eventId,
      cpf: order.cpf,
      status: 'pending',
      payment_method: order.paymentMethod,
      amount: order.amount,
      expires_at: order.expiresAt,
      event_title: order.event.title,
      event_date: order.event.date,
      event_location: order.event.location,
      buyer_name: order.buyer.name,
      buyer_email: order.buyer.email,
      idempotency_key: order.idempotencyKey,
      courtesy_link_id: order.courtesyLinkId,
    })
    .returning('*')) as OrderRow[];
  return one(rows)!;
}

/** A redeemed courtesy: the attendee who holds the ticket, the user who redeemed it, and the event as it was. */
export interface NewCourtesyOrder {
  userId: string;
  eventId: string;
  courtesyLinkId: string;
  courtesyAttendeeId: string;
  cpf: string | null;
  event: { title: string; date: Date; location: string };
  buyer: { name: string; email: string };
}

/**
 * Records a courtesy order, paid now at R$ 0,00, with no payment method and no payment window. Undefined when the
 * attendee already has their order (unique index): a concurrent insert waits for the first one and then does nothing.
 */
export async function insertCourtesyOrder(trx: Knex.Transaction, order: NewCourtesyOrder): Promise<Order | undefined> {
  return one(
    (await trx<OrderRow>('orders')
      .insert({
        user_id: order.userId,
        event_id: order.eventId,
        courtesy_link_id: order.courtesyLinkId,
        courtesy_attendee_id: order.courtesyAttendeeId,
        cpf: order.cpf,
        status: 'paid',
        payment_method: null,
        amount: '0.00',
        paid_at: trx.fn.now(),
        event_title: order.event.title,
        event_date: order.event.date,
        event_location: order.event.location,
        buyer_name: order.buyer.name,
        buyer_email: order.buyer.email,
      })
      .onConflict('courtesy_attendee_id')
      .ignore()
      .returning('*')) as OrderRow[],
  );
}

export async function findOrder(db: Knex, id: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ id }).limit(1));
}

/** Locks the order until the caller's transaction ends. */
export async function lockOrder(trx: Knex.Transaction, id: string): Promise<Order | undefined> {
  return one(await trx<OrderRow>('orders').where({ id }).forUpdate().limit(1));
}

export async function findOwnOrder(db: Knex, id: string, userId: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ id, user_id: userId }).limit(1));
}

export async function findByIdempotencyKey(db: Knex, userId: string, key: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ user_id: userId, idempotency_key: key }).limit(1));
}

export async function findPendingForEvent(db: Knex, userId: string, eventId: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ user_id: userId, event_id: eventId, status: 'pending' }).limit(1));
}

/** Removes an order that never held a spot nor had a charge (nothing else has heard of it). */
export async function deleteUnchargedOrder(db: Knex, id: string): Promise<void> {
  await db('orders').where({ id, status: 'pending' }).whereNull('asaas_payment_id').delete();
}

export interface StoredCharge {
  paymentId: string;
  pixQrCode: string | null;
  pixPayload: string | null;
  boletoUrl: string | null;
  invoiceUrl: string | null;
}

export async function storeCharge(trx: Knex.Transaction, id: string, charge: StoredCharge): Promise<Order | undefined> {
  return one(
    (await trx<OrderRow>('orders')
      .where({ id, status: 'pending' })
      .update({
        asaas_payment_id: charge.paymentId,
        pix_qr_code: charge.pixQrCode,
        pix_payload: charge.pixPayload,
        boleto_url: charge.boletoUrl,
        invoice_url: charge.invoiceUrl,
        updated_at: trx.fn.now(),
      })
      .returning('*')) as OrderRow[],
  );
}

const STAMP_OF: Partial<Record<OrderStatus, string>> = {
  paid: 'paid_at',
  cancelled: 'cancelled_at',
  expired: 'expired_at',
  refunded: 'refunded_at',
};

/**
 * Moves an order from one of `from` to `to` in one conditional statement; undefined when it was in none of them
 * (someone else moved it first). `changes` are extra columns to set with it.
 */
export async function transition(
  db: Knex,
  id: string,
  from: OrderStatus[],
  to: OrderStatus,
  changes: Record<string, unknown> = {},
): Promise<Order | undefined> {
  const stamp = STAMP_OF[to];
  return one(
    (await db<OrderRow>('orders')
      .where({ id })
      .whereIn('status', from)
      .update({
        ...(stamp ? { [stamp]: db.fn.now() } : {}),
        ...changes,
        status: to,
        updated_at: db.fn.now(),
      })
      .returning('*')) as OrderRow[],
  );
}

/** Notes why the charge's money went back on an order that keeps its status (one never paid here). */
export async function recordRefundReason(trx: Knex.Transaction, id: string, reason: RefundReason): Promise<void> {
  await trx('orders')
    .where({ id })
    .whereNull('refund_reason')
    .update({ refund_reason: reason, updated_at: trx.fn.now() });
}

/** Orders whose late payment is still owed back, longest waiting first. */
export async function listOwedRefunds(db: Knex, limit: number): Promise<string[]> {
  const rows = (await db('orders')
    .select('id')
    .whereNotNull('refund_owed_since')
    .orderBy('refund_owed_since')
    .limit(limit)) as { id: string }[];
  return rows.map((row) => row.id);
}

/** Clears an owed refund in one conditional statement; undefined when it was cleared already. */
export async function clearRefundOwed(trx: Knex.Transaction, id: string): Promise<Order | undefined> {
  return one(
    (await trx<OrderRow>('orders')
      .where({ id })
      .whereNotNull('refund_owed_since')
      .update({ refund_owed_since: null, updated_at: trx.fn.now() })
      .returning('*')) as OrderRow[],
  );
}

/** Replaces the buyer on every order of a user (name, e-mail, CPF); amounts, dates and statuses stay. */
export async function eraseBuyer(trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> {
  return trx('orders')
    .where({ user_id: userId })
    .update({ buyer_name: erased.name, buyer_email: erased.email, cpf: null, updated_at: trx.fn.now() });
}

export async function rememberForgottenUser(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('forgotten_users').insert({ user_id: userId }).onConflict('user_id').ignore();
}

export async function isForgottenUser(db: Knex, userId: string): Promise<boolean> {
  return (await db('forgotten_users').where({ user_id: userId }).first()) !== undefined;
}

/** A buyer's orders, newest first, one page of them, and how many there are in all. */
export async function listOwnOrders(
  db: Knex,
  userId: string,
  page: { offset: number; limit: number },
): Promise<{ orders: Order[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    db<OrderRow>('orders')
      .where({ user_id: userId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'order_number', order: 'desc' },
      ])
      .offset(page.offset)
      .limit(page.limit),
    db('orders').where({ user_id: userId }).count<{ count: number }[]>({ count: '*' }),
  ]);
  return { orders: (rows as OrderRow[]).map(toOrder), total: Number(count?.count ?? 0) };
}

/** Pending orders past their deadline that no other replica is working on, locked for the caller's transaction. */
export async function claimOverdue(trx: Knex.Transaction, now: Date, limit: number): Promise<string[]> {
  const rows = (await trx('orders')
    .select('id')
    .where({ status: 'pending' })
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()) as { id: string }[];
  return rows.map((row) => row.id);
}

export async function storeTicketQr(db: Knex, id: string, qrCodeData: string): Promise<boolean> {
  return (await db('orders').where({ id }).update({ qr_code_data: qrCodeData, updated_at: db.fn.now() })) > 0;
}

/** Marks the ticket used, unless a reset newer than this check-in was already recorded. */
export async function markTicketUsed(db: Knex, id: string, usedAt: Date): Promise<boolean> {
  const updated = await db('orders')
    .where({ id })
    .where((query) => query.whereNull('qr_code_reset_at').orWhere('qr_code_reset_at', '<', usedAt))
    .update({ qr_code_used: true, qr_code_used_at: usedAt, updated_at: db.fn.now() });
  return updated > 0;
}

/** Makes the ticket usable again, unless a check-in newer than this reset was already recorded. */
export async function markTicketReset(db: Knex, id: string, resetAt: Date): Promise<boolean> {
  const updated = await db('orders')
    .where({ id })
    .where((query) => query.whereNull('qr_code_used_at').orWhere('qr_code_used_at', '<=', resetAt))
    .update({ qr_code_used: false, qr_code_used_at: null, qr_code_reset_at: resetAt, updated_at: db.fn.now() });
  return updated > 0;
}
