import { containsPattern, foldedColumn, outboxInsert, prepared, type Knex } from '@ticketing/platform';
import {
  refundReasonLabels,
  type Envelope,
  type ErasedPerson,
  type OrderCompany,
  type OrderStatus,
} from '@ticketing/proto';
import type { Order, OrderItem, PaymentMethod, RefundReason } from '../domain/order.ts';
import { recordTimeline, type TimelineNote } from './timeline-repository.ts';

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
  expires_at: Date | null;
  paid_at: Date | null;
  first_checked_in_at: Date | null;
  withdrawal_requested_at: Date | null;
  event_title: string;
  event_date: Date;
  event_location: string;
  buyer_name: string;
  buyer_email: string;
  idempotency_key: string | null;
  refund_reason: RefundReason | null;
  refund_owed_since: Date | null;
  refund_requested_by: string | null;
  refund_requested_at: Date | null;
  refund_note: string | null;
  net_amount: string | null;
  late_payment_id: string | null;
  late_paid_at: Date | null;
  late_net_amount: string | null;
  company_cnpj: string | null;
  company_name: string | null;
  company_email: string | null;
  company_purchase_order: string | null;
  installments: number;
  discount_amount: string;
  coupon_id: string | null;
  coupon_code: string | null;
  refund_refused_at: Date | null;
  refund_refusal: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The columns an order is read with, by name: a prepared statement's answer keeps its shape when a later release adds
 * a column (with `*` its cached plan would fail until the connection closes).
 */
const ORDER_COLUMNS = Object.keys({
  id: 1,
  order_number: 1,
  user_id: 1,
  event_id: 1,
  courtesy_attendee_id: 1,
  courtesy_link_id: 1,
  cpf: 1,
  status: 1,
  payment_method: 1,
  amount: 1,
  asaas_payment_id: 1,
  expires_at: 1,
  paid_at: 1,
  first_checked_in_at: 1,
  withdrawal_requested_at: 1,
  event_title: 1,
  event_date: 1,
  event_location: 1,
  buyer_name: 1,
  buyer_email: 1,
  idempotency_key: 1,
  refund_reason: 1,
  refund_owed_since: 1,
  refund_requested_by: 1,
  refund_requested_at: 1,
  refund_note: 1,
  net_amount: 1,
  late_payment_id: 1,
  late_paid_at: 1,
  late_net_amount: 1,
  company_cnpj: 1,
  company_name: 1,
  company_email: 1,
  company_purchase_order: 1,
  installments: 1,
  discount_amount: 1,
  coupon_id: 1,
  coupon_code: 1,
  refund_refused_at: 1,
  refund_refusal: 1,
  created_at: 1,
  updated_at: 1,
} satisfies Record<keyof OrderRow, 1>).join(', ');

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
  expiresAt: row.expires_at,
  paidAt: row.paid_at,
  firstCheckedInAt: row.first_checked_in_at,
  withdrawalRequestedAt: row.withdrawal_requested_at,
  event: { title: row.event_title, date: row.event_date, location: row.event_location },
  buyer: { name: row.buyer_name, email: row.buyer_email },
  idempotencyKey: row.idempotency_key,
  refundReason: row.refund_reason,
  refundOwedSince: row.refund_owed_since,
  refundRequest: row.refund_requested_at
    ? { by: row.refund_requested_by, at: row.refund_requested_at, note: row.refund_note }
    : null,
  netAmount: row.net_amount,
  latePayment:
    row.late_payment_id && row.late_paid_at
      ? { paymentId: row.late_payment_id, paidAt: row.late_paid_at, netAmount: row.late_net_amount }
      : null,
  company:
    row.company_cnpj && row.company_name && row.company_email
      ? {
          cnpj: row.company_cnpj,
          name: row.company_name,
          email: row.company_email,
          purchaseOrder: row.company_purchase_order,
        }
      : null,
  installments: row.installments,
  discountAmount: row.discount_amount,
  coupon: row.coupon_id && row.coupon_code ? { id: row.coupon_id, code: row.coupon_code } : null,
  refundRefusal:
    row.refund_refused_at && row.refund_refusal !== null
      ? { at: row.refund_refused_at, reason: row.refund_refusal }
      : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const one = (rows: OrderRow[]): Order | undefined => (rows[0] ? toOrder(rows[0]) : undefined);

export interface NewOrder {
  /** Chosen before the order is recorded: its spot and promotional use are taken under it first. */
  id: string;
  userId: string;
  eventId: string;
  /** The buyer's CPF; not needed (null when they have none) for a purchase made out to a company. */
  cpf: string | null;
  company: OrderCompany | null;
  paymentMethod: PaymentMethod;
  installments: number;
  amount: string;
  /** What the coupon took off the tickets ("0.00" without one). */
  discountAmount: string;
  coupon: { id: string; code: string } | null;
  expiresAt: Date;
  event: { title: string; date: Date; location: string };
  buyer: { name: string; email: string };
  idempotencyKey: string | null;
  /** The promotional courtesy link whose price the order has, if any. */
  courtesyLinkId: string | null;
  items: OrderItem[];
}

/** A unique index refused the row: here, another pending order of the buyer for the event, or a used key. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '23505';
}

/**
 * Records a new pending order unless the buyer already has `max` orders waiting for payment, counted by account and
 * by CPF (a CPF that moved to another account keeps its count); undefined when over the cap. One statement: it takes
 * transaction-scoped advisory locks on the CPF and the account (`pending_orders_locked`, always in that order, so two
 * purchases never deadlock) and holds them until the order is committed, so concurrent purchases of one buyer count
 * one after the other; other buyers' purchases do not wait for them.
 */
export async function insertPendingOrder(db: Knex, max: number, order: NewOrder): Promise<Order | undefined> {
  const { rows } = (await db
    .raw(
      `with recorded as (
         insert into orders (id, user_id, event_id, cpf, status, payment_method, amount, expires_at, event_title,
                             event_date, event_location, buyer_name, buyer_email, idempotency_key, courtesy_link_id,
                             company_cnpj, company_name, company_email, company_purchase_order, installments,
                             discount_amount, coupon_id, coupon_code)
         select ?::uuid, ?::uuid, ?::uuid, ?, 'pending', ?, ?::numeric, ?::timestamptz, ?,
                ?::timestamptz, ?, ?, ?, ?, ?::uuid,
                ?, ?, ?, ?, ?::smallint,
                ?::numeric, ?::uuid, ?
         where pending_orders_locked(?::uuid, ?) < ?
         returning ${ORDER_COLUMNS}
       ), lines as (
         ${ITEMS_INSERT('recorded')}
       )
       select * from recorded`,
      [
        order.id,
        order.userId,
        order.eventId,
        order.cpf,
        order.paymentMethod,
        order.amount,
        order.expiresAt,
        order.event.title,
        order.event.date,
        order.event.location,
        order.buyer.name,
        order.buyer.email,
        order.idempotencyKey,
        order.courtesyLinkId,
        order.company?.cnpj ?? null,
        order.company?.name ?? null,
        order.company?.email ?? null,
        order.company?.purchaseOrder ?? null,
        order.installments,
        order.discountAmount,
        order.coupon?.id ?? null,
        order.coupon?.code ?? null,
        order.userId,
        // A company's purchase by a buyer without a CPF is counted by account alone.
        order.cpf?.replace(/\D/g, '') ?? null,
        max,
        JSON.stringify(order.items.map(toItemRow)),
      ],
    )
    .options(prepared('orders.record-pending'))) as { rows: OrderRow[] };
  return one(rows);
}

interface ItemRow {
  order_id: string;
  index: number;
  ticket_type_id: string;
  type_name: string;
  lot_name: string | null;
  price: string;
  requires_document: boolean;
  holder_name: string;
  holder_email: string;
  holder_cpf: string | null;
}

const toItemRow = (item: OrderItem): Omit<ItemRow, 'order_id'> => ({
  index: item.index,
  ticket_type_id: item.ticketTypeId,
  type_name: item.typeName,
  lot_name: item.lotName,
  price: item.price,
  requires_document: item.requiresDocument,
  holder_name: item.holder.name,
  holder_email: item.holder.email,
  holder_cpf: item.holder.cpf,
});

const toItem = (row: ItemRow): OrderItem => ({
  index: row.index,
  ticketTypeId: row.ticket_type_id,
  typeName: row.type_name,
  lotName: row.lot_name,
  price: row.price,
  requiresDocument: row.requires_document,
  holder: { name: row.holder_name, email: row.holder_email, cpf: row.holder_cpf },
});

/** Inserts the lines given as a JSON array (the last parameter) for the order the CTE `recorded` returns. */
const ITEMS_INSERT = (recorded: string) => `
  insert into order_items (order_id, index, ticket_type_id, type_name, lot_name, price, requires_document,
                           holder_name, holder_email, holder_cpf)
  select ${recorded}.id, line.index, line.ticket_type_id, line.type_name, line.lot_name, line.price,
         line.requires_document, line.holder_name, line.holder_email, line.holder_cpf
    from ${recorded}, jsonb_to_recordset(?::jsonb) as line(index smallint, ticket_type_id uuid, type_name text,
         lot_name text, price numeric, requires_document boolean, holder_name text, holder_email text, holder_cpf text)`;

/** The lines of each order named, in their order. */
export async function findItems(db: Knex, orderIds: string[]): Promise<Map<string, OrderItem[]>> {
  const rows = (await db<ItemRow>('order_items')
    .whereIn('order_id', orderIds)
    .orderBy(['order_id', 'index'])) as ItemRow[];
  const byOrder = new Map<string, OrderItem[]>(orderIds.map((id) => [id, []]));
  for (const row of rows) byOrder.get(row.order_id)?.push(toItem(row));
  return byOrder;
}

/** The order's lines, in their order. */
export async function itemsOf(db: Knex, orderId: string): Promise<OrderItem[]> {
  return (await findItems(db, [orderId])).get(orderId)!;
}

/** Locks the order's line until the caller's transaction ends; undefined when the order has no such line. */
export async function lockItem(trx: Knex.Transaction, orderId: string, index: number): Promise<OrderItem | undefined> {
  const row = (await trx<ItemRow>('order_items').where({ order_id: orderId, index }).forUpdate().first()) as
    ItemRow | undefined;
  return row && toItem(row);
}

/** Hands the order's line to another holder. */
export async function changeHolder(
  trx: Knex.Transaction,
  orderId: string,
  index: number,
  holder: OrderItem['holder'],
): Promise<OrderItem> {
  const [row] = (await trx<ItemRow>('order_items')
    .where({ order_id: orderId, index })
    .update({ holder_name: holder.name, holder_email: holder.email, holder_cpf: holder.cpf })
    .returning('*')) as ItemRow[];
  return toItem(row!);
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
  /** Its one line: the guest's ticket. */
  item: OrderItem;
}

/**
 * Records a courtesy order, paid now at R$ 0,00, with no payment method and no payment window. Undefined when the
 * attendee already has their order (unique index): a concurrent insert waits for the first one and then does nothing.
 */
export async function insertCourtesyOrder(trx: Knex.Transaction, order: NewCourtesyOrder): Promise<Order | undefined> {
  const inserted = one(
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
  if (!inserted) return undefined;
  await trx('order_items').insert({ order_id: inserted.id, ...toItemRow(order.item) });
  await recordTimeline(trx, inserted.id, { kind: 'paid', at: inserted.paidAt });
  return inserted;
}

export async function findOrder(db: Knex, id: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ id }).limit(1));
}

/**
 * The event's orders still waiting for payment or paid, locked until the caller's transaction ends (in one order,
 * so two callers never wait on each other): nothing pays, refunds or cancels them meanwhile.
 */
export async function lockOpenOrdersOfEvent(trx: Knex.Transaction, eventId: string): Promise<Order[]> {
  const rows = (await trx<OrderRow>('orders')
    .where({ event_id: eventId })
    .whereIn('status', ['pending', 'paid'])
    .orderBy('id')
    .forUpdate()) as OrderRow[];
  return rows.map(toOrder);
}

/** Locks the order until the caller's transaction ends. */
export async function lockOrder(trx: Knex.Transaction, id: string): Promise<Order | undefined> {
  return one(await trx<OrderRow>('orders').where({ id }).forUpdate().limit(1));
}

export async function findOwnOrder(db: Knex, id: string, userId: string): Promise<Order | undefined> {
  return one(await db<OrderRow>('orders').where({ id, user_id: userId }).limit(1));
}

/**
 * What a buyer's earlier requests left for a purchase, in one read: the order made with this Idempotency-Key (if
 * one is given), and the buyer's order still waiting for payment for the event.
 */
export async function findEarlierOrders(
  db: Knex,
  userId: string,
  { eventId, idempotencyKey }: { eventId: string; idempotencyKey: string | undefined },
): Promise<{ keyed: Order | undefined; pending: Order | undefined }> {
  const { rows } = (await db
    .raw(
      `select ${ORDER_COLUMNS} from orders
        where user_id = ? and ((event_id = ? and status = 'pending') or idempotency_key = ?)`,
      [userId, eventId, idempotencyKey ?? null],
    )
    .options(prepared('orders.earlier'))) as { rows: OrderRow[] };
  const orders = rows.map(toOrder);
  return {
    keyed: idempotencyKey === undefined ? undefined : orders.find((order) => order.idempotencyKey === idempotencyKey),
    pending: orders.find((order) => order.eventId === eventId && order.status === 'pending'),
  };
}

/**
 * Stores the charge's id on the order still pending (how to pay it stays with payments), notes it on the timeline and writes the order's announcement, all in
 * one statement (one round trip, atomic): undefined, with nothing written, when the order is no longer pending.
 */
export async function storeCharge(
  db: Knex,
  id: string,
  paymentId: string,
  announcement: Envelope,
): Promise<Order | undefined> {
  const { rows } = (await db
    .raw(
      `with stored as (
       update orders
          set asaas_payment_id = ?, updated_at = now()
        where id = ? and status = 'pending'
       returning ${ORDER_COLUMNS}
     ), noted as (
       insert into order_timeline (order_id, kind, at, detail) select id, 'charged', now(), ? from stored
     ), announced as (
       ${outboxInsert('(select ?::jsonb as envelope from stored) as announcement')}
     )
     select * from stored`,
      [paymentId, id, paymentId, JSON.stringify(announcement)],
    )
    .options(prepared('orders.store-charge-id'))) as { rows: OrderRow[] };
  return one(rows);
}

const STAMP_OF: Partial<Record<OrderStatus, string>> = {
  paid: 'paid_at',
  cancelled: 'cancelled_at',
  expired: 'expired_at',
  refunded: 'refunded_at',
};

/**
 * Moves an order from one of `from` to `to` in one conditional statement; undefined when it was in none of them
 * (someone else moved it first). `changes` are extra columns to set with it. The move is noted on the order's
 * timeline in the same transaction.
 */
export async function transition(
  db: Knex,
  id: string,
  from: OrderStatus[],
  to: OrderStatus,
  changes: Record<string, unknown> = {},
): Promise<Order | undefined> {
  const stamp = STAMP_OF[to];
  const move = async (trx: Knex) => {
    const moved = one(
      (await trx<OrderRow>('orders')
        .where({ id })
        .whereIn('status', from)
        .update({
          ...(stamp ? { [stamp]: trx.fn.now() } : {}),
          ...changes,
          status: to,
          updated_at: trx.fn.now(),
        })
        .returning('*')) as OrderRow[],
    );
    if (moved) await recordTimeline(trx, id, timelineOfMove(moved));
    return moved;
  };
  return db.isTransaction ? move(db) : db.transaction(move);
}

/** How a move reads on the timeline: a refund still owed is requested; refunded once the money went back. */
function timelineOfMove(order: Order): TimelineNote {
  if (order.status === 'paid') return { kind: 'paid', at: order.paidAt };
  if (order.status === 'refunded') {
    return order.refundOwedSince
      ? { kind: 'refund_requested', detail: order.refundRequest?.note ?? refundDetail(order) }
      : { kind: 'refunded', detail: refundDetail(order) };
  }
  // Nothing moves an order back to pending.
  return { kind: order.status as 'cancelled' | 'expired' };
}

const refundDetail = (order: Pick<Order, 'refundReason'>) =>
  order.refundReason ? refundReasonLabels[order.refundReason] : null;

/** Notes why the charge's money went back on an order that keeps its status (one never paid here). */
export async function recordRefundReason(trx: Knex.Transaction, id: string, reason: RefundReason): Promise<void> {
  const updated = await trx('orders')
    .where({ id })
    .whereNull('refund_reason')
    .update({ refund_reason: reason, updated_at: trx.fn.now() });
  if (updated) await recordTimeline(trx, id, { kind: 'refunded', detail: refundReasonLabels[reason] });
}

/**
 * A paid order's money is to go back in full (an administrator's refund, the buyer's withdrawal once its ticket is
 * void, the event cancelled): refunded now and owed until payments has given it back, in one conditional statement.
 * Undefined when the order was not paid (or someone else refunded it first). `by` is null when no one person asked
 * for it. A withdrawal waiting for its ticket is settled by it, and counts as asked when the buyer asked.
 */
export async function oweRequestedRefund(
  db: Knex,
  id: string,
  request: { reason: RefundReason; by: string | null; note: string | null },
): Promise<Order | undefined> {
  return transition(db, id, ['paid'], 'refunded', {
    refund_reason: request.reason,
    refund_requested_by: request.by,
    refund_requested_at: db.raw('coalesce(withdrawal_requested_at, now())'),
    refund_note: request.note,
    refund_owed_since: db.fn.now(),
    withdrawal_requested_at: null,
  });
}

/**
 * Notes the buyer's withdrawal from a paid order, in one conditional statement: only if its ticket was not admitted
 * (as tickets told it, markTicketUsed writing the same row) and no withdrawal is waiting already; undefined otherwise.
 */
export async function requestWithdrawal(trx: Knex.Transaction, id: string): Promise<Order | undefined> {
  return one(
    (await trx<OrderRow>('orders')
      .where({ id, status: 'paid' })
      .whereNull('first_checked_in_at')
      .whereNull('withdrawal_requested_at')
      .update({ withdrawal_requested_at: trx.fn.now(), updated_at: trx.fn.now() })
      .returning('*')) as OrderRow[],
  );
}

/**
 * The door admitted the ticket (at `usedAt`) before the withdrawal voided it: the order stays paid, with no
 * withdrawal waiting and the entry noted at once (ticket.checked-in may still be on its way), so none is offered again.
 */
export async function dropWithdrawal(trx: Knex.Transaction, id: string, usedAt: Date): Promise<void> {
  await trx('orders')
    .where({ id })
    .update({
      withdrawal_requested_at: null,
      first_checked_in_at: trx.raw('least(first_checked_in_at, ?::timestamptz)', [usedAt]),
      updated_at: trx.fn.now(),
    });
}

/** Notes a payment that arrived after the order ended, unless one is noted already; false then. */
export async function noteLatePayment(
  trx: Knex.Transaction,
  id: string,
  payment: { paymentId: string; paidAt: Date; netAmount: string | null },
): Promise<boolean> {
  const noted = await trx('orders').where({ id }).whereNull('late_payment_id').update({
    late_payment_id: payment.paymentId,
    late_paid_at: payment.paidAt,
    late_net_amount: payment.netAmount,
    updated_at: trx.fn.now(),
  });
  return noted > 0;
}

/** Late payments still waiting for the catalog's answer, longest waiting first. */
export const listLatePayments = (db: Knex, limit: number) =>
  listWaiting(db, { while: 'late_payment_id', since: 'late_paid_at' }, limit);

/**
 * Orders whose money is still owed back, longest waiting first; not those the provider refused: asking again the
 * same way gets the same refusal, so they wait for an administrator (`listRefusedRefunds`).
 */
export const listOwedRefunds = (db: Knex, limit: number) =>
  listWaiting(db, { while: 'refund_owed_since', since: 'refund_owed_since', unless: 'refund_refused_at' }, limit);

/** The ids of the orders whose `while` column is set (and `unless` is not), longest waiting (by `since`) first. */
async function listWaiting(
  db: Knex,
  columns: { while: keyof OrderRow; since: keyof OrderRow; unless?: keyof OrderRow },
  limit: number,
): Promise<string[]> {
  const rows = (await db('orders')
    .select('id')
    .whereNotNull(columns.while)
    .modify((query) => {
      if (columns.unless) query.whereNull(columns.unless);
    })
    .orderBy(columns.since)
    .limit(limit)) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * Clears an owed refund in one conditional statement; undefined when it was cleared already. A boleto's refund
 * (`bankDetailsUrl`) is the provider's to pay once the payer gives a bank account: noted as waiting for it.
 */
export async function clearRefundOwed(
  trx: Knex.Transaction,
  id: string,
  bankDetailsUrl: string | null,
): Promise<Order | undefined> {
  const cleared = one(
    (await trx<OrderRow>('orders')
      .where({ id })
      .whereNotNull('refund_owed_since')
      .update({ refund_owed_since: null, refund_refused_at: null, refund_refusal: null, updated_at: trx.fn.now() })
      .returning('*')) as OrderRow[],
  );
  if (cleared) {
    const note: TimelineNote = bankDetailsUrl
      ? { kind: 'refund_awaiting_bank_details', detail: bankDetailsUrl }
      : { kind: 'refunded', detail: refundDetail(cleared) };
    await recordTimeline(trx, id, note);
  }
  return cleared;
}

/** The provider refused an owed refund (`reason`, its words): kept on the order, which waits for an administrator. */
export async function recordRefundRefusal(trx: Knex.Transaction, id: string, reason: string): Promise<boolean> {
  const updated = await trx('orders')
    .where({ id })
    .whereNotNull('refund_owed_since')
    .update({ refund_refused_at: trx.fn.now(), refund_refusal: reason, updated_at: trx.fn.now() });
  if (updated) await recordTimeline(trx, id, { kind: 'refund_refused', detail: reason });
  return updated > 0;
}

/** An administrator tries a refused refund again: the refusal is cleared (still owed); false when there was none. */
export async function clearRefundRefusal(trx: Knex.Transaction, id: string): Promise<boolean> {
  const updated = await trx('orders')
    .where({ id })
    .whereNotNull('refund_owed_since')
    .whereNotNull('refund_refused_at')
    .update({ refund_refused_at: null, refund_refusal: null, updated_at: trx.fn.now() });
  if (updated) await recordTimeline(trx, id, { kind: 'refund_requested', detail: 'Nova tentativa de estorno' });
  return updated > 0;
}

/** Refunds the provider refused, still owed, oldest refusal first. */
export async function listRefusedRefunds(db: Knex, limit: number): Promise<Order[]> {
  const rows = (await db<OrderRow>('orders')
    .whereNotNull('refund_owed_since')
    .whereNotNull('refund_refused_at')
    .orderBy('refund_refused_at')
    .limit(limit)) as OrderRow[];
  return rows.map(toOrder);
}

/** Replaces the buyer on every order of a user (name, e-mail, CPF); amounts, dates and statuses stay. */
export async function eraseBuyer(trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> {
  // The tickets the buyer held themselves lose the person too, here and in the lines of the events kept about the
  // user's orders; those handed to others keep their holders.
  const holder = { name: erased.name, email: erased.email, cpf: null };
  for (const table of ['outbox', 'dead_letters']) {
    await trx.raw(
      `update ?? set envelope = jsonb_set(envelope, '{payload,items}', (
         select jsonb_agg(case when lower(line #>> '{holder,email}') = lower(o.buyer_email)
                               then jsonb_set(line, '{holder}', ?::jsonb) else line end order by place)
           from jsonb_array_elements(envelope #> '{payload,items}') with ordinality as lines(line, place)))
         from orders o
        where o.id::text = envelope #>> '{payload,orderId}' and o.user_id = ?
          and jsonb_typeof(envelope #> '{payload,items}') = 'array'`,
      [table, JSON.stringify(holder), userId],
    );
    // A holder change names the ticket's holder and the one before.
    for (const path of ['{payload,item,holder}', '{payload,previous}']) {
      await trx.raw(
        `update ?? set envelope = jsonb_set(envelope, ?::text[], ?::jsonb)
           from orders o
          where o.id::text = envelope #>> '{payload,orderId}' and o.user_id = ?
            and lower(envelope #>> ?::text[]) = lower(o.buyer_email)`,
        [table, path, JSON.stringify(holder), userId, `${path.slice(0, -1)},email}`],
      );
    }
  }
  await trx.raw(
    `update order_items i set holder_name = ?, holder_email = ?, holder_cpf = null
       from orders o
      where o.id = i.order_id and o.user_id = ? and lower(i.holder_email) = lower(o.buyer_email)`,
    [erased.name, erased.email, userId],
  );
  return trx('orders')
    .where({ user_id: userId })
    .update({ buyer_name: erased.name, buyer_email: erased.email, cpf: null, updated_at: trx.fn.now() });
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

/** What the back office searches orders by; each key present widens the search (any may match). */
export interface OrderSearch {
  /** Lower-case words without accents, each of which the buyer's name must contain. */
  nameWords: string[];
  /** Part of the buyer's or a holder's e-mail, lower case. */
  email: string | null;
  id: string | null;
  orderNumber: string | null;
  cpfDigits: string | null;
  /** A CNPJ's 14 characters, without punctuation. */
  cnpjChars: string | null;
}

/** Which orders a search lists: every order, only those bought for a company, or only those in a buyer's name. */
export type CompanyFilter = boolean | undefined;

/** A line of the order whose holder has every word of the name, or the e-mail part. */
function holderMatching(search: OrderSearch) {
  return (query: Knex.QueryBuilder) => {
    query
      .select(1)
      .from('order_items')
      .whereRaw('order_items.order_id = orders.id')
      .where((holder) => {
        if (search.nameWords.length > 0) {
          holder.orWhere((name) => {
            for (const word of search.nameWords) {
              name.whereRaw(`${foldedColumn('holder_name')} like ?`, [containsPattern(word)]);
            }
          });
        }
        if (search.email) holder.orWhereRaw('lower(holder_email) like ?', [containsPattern(search.email)]);
      });
  };
}

function matching(search: OrderSearch) {
  return (query: Knex.QueryBuilder) => {
    if (search.nameWords.length > 0) {
      query.orWhere((name) => {
        for (const word of search.nameWords) {
          name.whereRaw(`${foldedColumn('buyer_name')} like ?`, [containsPattern(word)]);
        }
      });
      query.orWhere((name) => {
        for (const word of search.nameWords) {
          name.whereRaw(`${foldedColumn('company_name')} like ?`, [containsPattern(word)]);
        }
      });
    }
    if (search.nameWords.length > 0 || search.email) query.orWhereExists(holderMatching(search));
    if (search.email) query.orWhereRaw('lower(buyer_email) like ?', [containsPattern(search.email)]);
    if (search.id) query.orWhere({ id: search.id });
    if (search.orderNumber) query.orWhere({ order_number: search.orderNumber });
    if (search.cpfDigits) query.orWhere('cpf_digits', search.cpfDigits);
    if (search.cnpjChars) query.orWhere('company_cnpj_chars', search.cnpjChars);
  };
}

/**
 * Orders matching the search (every order without one), bought for a company or not when `company` says, newest
 * first, one page of them, and how many in all.
 */
export async function searchOrders(
  db: Knex,
  search: OrderSearch | null,
  company: CompanyFilter,
  page: { offset: number; limit: number },
): Promise<{ orders: Order[]; total: number }> {
  const matches = () =>
    db<OrderRow>('orders').modify((query) => {
      if (search) query.where(matching(search));
      if (company === true) query.whereNotNull('company_cnpj');
      if (company === false) query.whereNull('company_cnpj');
    });
  const [rows, [count]] = await Promise.all([
    matches()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'order_number', order: 'desc' },
      ])
      .offset(page.offset)
      .limit(page.limit),
    matches().count<{ count: number }[]>({ count: '*' }),
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

/** An issued ticket as the buyer's page shows it: tickets' data, kept here as tickets announces it. */
export interface TicketView {
  orderId: string;
  itemIndex: number;
  ticketId: string | null;
  qrCodeData: string;
  /** When its current admission happened; null when it is not admitted now (never, or reset since). */
  usedAt: Date | null;
  firstAdmittedAt: Date | null;
}

interface TicketViewRow {
  order_id: string;
  item_index: number;
  ticket_id: string | null;
  qr_code_data: string;
  used_at: Date | null;
  first_admitted_at: Date | null;
}

/** The issued tickets of each order named, by order, in the order of its lines. */
export async function findTicketViews(db: Knex, orderIds: string[]): Promise<Map<string, TicketView[]>> {
  const rows = (await db<TicketViewRow>('ticket_views')
    .whereIn('order_id', orderIds)
    .orderBy(['order_id', 'item_index'])) as TicketViewRow[];
  const byOrder = new Map<string, TicketView[]>(orderIds.map((id) => [id, []]));
  for (const row of rows) {
    byOrder.get(row.order_id)?.push({
      orderId: row.order_id,
      itemIndex: row.item_index,
      ticketId: row.ticket_id,
      qrCodeData: row.qr_code_data,
      usedAt: row.used_at,
      firstAdmittedAt: row.first_admitted_at,
    });
  }
  return byOrder;
}

/**
 * The ticket of the order's line `itemIndex` was issued (again, to a new holder: its QR replaces the one before).
 * False for an order unknown here.
 */
export async function storeTicketQr(
  trx: Knex.Transaction,
  ticket: { orderId: string; itemIndex: number; ticketId: string; qrCodeData: string },
  issuedAt: string,
): Promise<boolean> {
  const { rowCount } = await trx.raw(
    `insert into ticket_views (order_id, item_index, ticket_id, qr_code_data, issued_at)
     select id, ?, ?, ?, ?::timestamptz from orders where id = ?
     on conflict (order_id, item_index) do update
       set ticket_id = excluded.ticket_id, qr_code_data = excluded.qr_code_data, issued_at = excluded.issued_at`,
    [ticket.itemIndex, ticket.ticketId, ticket.qrCodeData, issuedAt, ticket.orderId],
  );
  const stored = (rowCount ?? 0) > 0;
  if (stored) await recordTimeline(trx, ticket.orderId, { kind: 'ticket_issued', at: issuedAt });
  return stored;
}

/** The view of the ticket: by its id, or the order's first line for a ticket issued before its id was kept here. */
const ofTicket = (ticket: { orderId: string; ticketId: string }) => (query: Knex.QueryBuilder) =>
  query
    .where({ ticket_id: ticket.ticketId })
    .orWhere((old) => old.where({ order_id: ticket.orderId, item_index: 0 }).whereNull('ticket_id'));

/**
 * Marks the ticket used, unless a reset newer than this check-in was already recorded. Every check-in is noted on
 * the timeline, and the first one is kept, on the order (any of its tickets admitted ends the right of withdrawal)
 * and on the ticket: attendance a reset does not undo.
 */
export async function markTicketUsed(
  trx: Knex.Transaction,
  ticket: { orderId: string; ticketId: string },
  usedAt: Date,
): Promise<boolean> {
  await trx('orders')
    .where({ id: ticket.orderId })
    .update({ first_checked_in_at: trx.raw('least(first_checked_in_at, ?::timestamptz)', [usedAt]) });
  await recordTimeline(trx, ticket.orderId, { kind: 'checked_in', at: usedAt });
  await trx('ticket_views')
    .where(ofTicket(ticket))
    .update({
      ticket_id: ticket.ticketId,
      first_admitted_at: trx.raw('least(first_admitted_at, ?::timestamptz)', [usedAt]),
    });
  const updated = await trx('ticket_views')
    .where(ofTicket(ticket))
    .where((query) => query.whereNull('reset_at').orWhere('reset_at', '<', usedAt))
    .update({ used_at: usedAt });
  return updated > 0;
}

/**
 * Makes the ticket usable again, unless a check-in newer than this reset was already recorded or the ticket is still
 * admitted to another session (`stillUsed`); noted either way.
 */
export async function markTicketReset(
  trx: Knex.Transaction,
  ticket: { orderId: string; ticketId: string },
  resetAt: Date,
  stillUsed: boolean,
): Promise<boolean> {
  await recordTimeline(trx, ticket.orderId, { kind: 'reset', at: resetAt });
  if (stillUsed) return false;
  const updated = await trx('ticket_views')
    .where(ofTicket(ticket))
    .where((query) => query.whereNull('used_at').orWhere('used_at', '<=', resetAt))
    .update({ used_at: null, reset_at: resetAt });
  return updated > 0;
}
