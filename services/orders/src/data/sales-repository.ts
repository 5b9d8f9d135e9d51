import type { Knex } from '@ticketing/platform';
import type { OrderStatus } from '@ticketing/proto';
import type { PaymentMethod } from '../domain/order.ts';

/** The orders of one event with one status and payment method, counted and summed (money as "123.45"). */
export interface OrderGroup {
  eventId: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod | null;
  count: number;
  /** Their tickets (lines). */
  tickets: number;
  amount: string;
  /** The provider's net where it said it, the amount where it did not. */
  net: string;
  checkedIn: number;
}

/** An event as its latest order has it. */
export interface SoldEvent {
  eventId: string;
  title: string;
  date: Date;
}

export interface SalesDayRow {
  date: string;
  orders: number;
  amount: string;
}

const ofEvent = (eventId: string | undefined) => (query: Knex.QueryBuilder) => {
  if (eventId) query.where({ event_id: eventId });
};

export async function orderGroups(db: Knex, eventId?: string): Promise<OrderGroup[]> {
  const rows = (await db('orders')
    .modify(ofEvent(eventId))
    .groupBy('event_id', 'status', 'payment_method')
    .select(
      'event_id',
      'status',
      'payment_method',
      db.raw('count(*)::int as count'),
      db.raw('sum((select count(*) from order_items where order_items.order_id = orders.id))::int as tickets'),
      db.raw('sum(amount) as amount'),
      db.raw('sum(coalesce(net_amount, amount)) as net'),
      db.raw('count(first_checked_in_at)::int as checked_in'),
    )) as {
    event_id: string;
    status: OrderStatus;
    payment_method: PaymentMethod | null;
    count: number;
    tickets: number;
    amount: string;
    net: string;
    checked_in: number;
  }[];
  return rows.map((row) => ({
    eventId: row.event_id,
    status: row.status,
    paymentMethod: row.payment_method,
    count: row.count,
    tickets: row.tickets,
    amount: row.amount,
    net: row.net,
    checkedIn: row.checked_in,
  }));
}

export async function soldEvents(db: Knex, eventId?: string): Promise<SoldEvent[]> {
  const rows = (await db('orders')
    .modify(ofEvent(eventId))
    .distinctOn('event_id')
    .orderBy([{ column: 'event_id' }, { column: 'created_at', order: 'desc' }])
    .select('event_id', 'event_title', 'event_date')) as { event_id: string; event_title: string; event_date: Date }[];
  return rows.map((row) => ({ eventId: row.event_id, title: row.event_title, date: row.event_date }));
}

/** Bought tickets valid now (paid, not courtesies) per day of payment in `timeZone`, oldest first. */
export async function salesPerDay(db: Knex, timeZone: string, eventId?: string): Promise<SalesDayRow[]> {
  return (await db('orders')
    .modify(ofEvent(eventId))
    .where({ status: 'paid' })
    .whereNotNull('payment_method')
    .groupByRaw('1')
    .orderByRaw('1')
    .select(
      db.raw(`to_char(paid_at at time zone ?, 'YYYY-MM-DD') as date`, [timeZone]),
      db.raw('count(*)::int as orders'),
      db.raw('sum(amount) as amount'),
    )) as SalesDayRow[];
}

export interface TypeLotRow {
  ticketTypeId: string;
  /** The name the type was last sold under. */
  typeName: string;
  lotName: string | null;
  tickets: number;
  /** What they were sold for, without the convenience fee. */
  gross: string;
}

/** One event's valid tickets (of paid orders, courtesies too) by type and lot, in the order first sold. */
export async function ticketsPerTypeAndLot(db: Knex, eventId: string): Promise<TypeLotRow[]> {
  const { rows } = (await db.raw(
    `select i.ticket_type_id, (array_agg(i.type_name order by o.created_at desc))[1] as type_name, i.lot_name,
            count(*)::int as tickets, sum(i.price) as gross
       from order_items i join orders o on o.id = i.order_id
      where o.event_id = ? and o.status = 'paid'
      group by i.ticket_type_id, i.lot_name
      order by min(o.created_at), min(i.index), i.lot_name nulls first`,
    [eventId],
  )) as {
    rows: { ticket_type_id: string; type_name: string; lot_name: string | null; tickets: number; gross: string }[];
  };
  return rows.map((row) => ({
    ticketTypeId: row.ticket_type_id,
    typeName: row.type_name,
    lotName: row.lot_name,
    tickets: row.tickets,
    gross: row.gross,
  }));
}

export interface CouponRow {
  code: string;
  orders: number;
  discount: string;
}

/** What each coupon took off paid orders, most used first (ties by code). */
export async function discountsPerCoupon(db: Knex, eventId?: string): Promise<CouponRow[]> {
  return (await db('orders')
    .modify(ofEvent(eventId))
    .where({ status: 'paid' })
    .whereNotNull('coupon_code')
    .groupBy('coupon_code')
    .orderByRaw('count(*) desc, coupon_code')
    .select(
      'coupon_code as code',
      db.raw('count(*)::int as orders'),
      db.raw('sum(discount_amount) as discount'),
    )) as CouponRow[];
}
