import {
  EVENT_TIME_ZONE,
  fromCents,
  ORDER_STATUSES,
  SALES_METHODS,
  toCents,
  type OrderStatus,
  type SalesEventRow,
  type SalesMethod,
  type SalesTypeRow,
  type SalesView,
} from '@ticketing/proto';
import {
  discountsPerCoupon,
  orderGroups,
  salesPerDay,
  soldEvents,
  ticketsPerTypeAndLot,
  type OrderGroup,
  type SoldEvent,
  type TypeLotRow,
} from '../data/sales-repository.ts';
import type { OrdersDeps } from './order.ts';

/** Money and counts of a set of orders, in integer cents. */
interface Tally {
  grossCents: number;
  netCents: number;
  refundedCents: number;
  byStatus: Record<OrderStatus, number>;
  byMethod: Record<SalesMethod, number>;
  /** Valid tickets (of paid orders), by how their orders were paid. */
  ticketsByMethod: Record<SalesMethod, number>;
  checkedIn: number;
}

const zeros = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

/**
 * Adds up orders grouped by status and method. Revenue is what paid orders keep: a refunded order's money went back
 * and is counted apart; a courtesy is paid at R$ 0,00. Check-ins count only valid (paid) tickets.
 */
function tally(groups: OrderGroup[]): Tally {
  const total: Tally = {
    grossCents: 0,
    netCents: 0,
    refundedCents: 0,
    byStatus: zeros(ORDER_STATUSES),
    byMethod: zeros(SALES_METHODS),
    ticketsByMethod: zeros(SALES_METHODS),
    checkedIn: 0,
  };
  for (const group of groups) {
    total.byStatus[group.status] += group.count;
    if (group.status === 'refunded') total.refundedCents += toCents(group.amount);
    if (group.status !== 'paid') continue;
    total.byMethod[group.paymentMethod ?? 'courtesy'] += group.count;
    total.ticketsByMethod[group.paymentMethod ?? 'courtesy'] += group.tickets;
    total.grossCents += toCents(group.amount);
    total.netCents += toCents(group.net);
    total.checkedIn += group.checkedIn;
  }
  return total;
}

const soldOf = (total: Tally) => total.byStatus.paid;
/** Valid tickets bought (an order may carry several) and given as courtesies. */
const boughtOf = (total: Tally) =>
  Object.values(total.ticketsByMethod).reduce((sum, count) => sum + count, 0) - total.ticketsByMethod.courtesy;

/** One event's line in the figures of every event, from that event's own groups. */
function eventLine(event: SoldEvent, groups: OrderGroup[]): SalesEventRow {
  const own = tally(groups);
  return {
    eventId: event.eventId,
    title: event.title,
    date: event.date.toISOString(),
    gross: fromCents(own.grossCents),
    net: fromCents(own.netCents),
    paid: boughtOf(own),
    courtesy: own.ticketsByMethod.courtesy,
    checkedIn: own.checkedIn,
  };
}

const byDate = (a: SalesEventRow, b: SalesEventRow) => a.date.localeCompare(b.date);

/** One event's valid tickets by type, each with its lots, from the rows per type and lot (in integer cents). */
function perType(rows: TypeLotRow[]): SalesTypeRow[] {
  return [...Map.groupBy(rows, (row) => row.ticketTypeId)].map(([ticketTypeId, lots]) => ({
    ticketTypeId,
    typeName: lots[0]!.typeName,
    tickets: lots.reduce((sum, lot) => sum + lot.tickets, 0),
    gross: fromCents(lots.reduce((sum, lot) => sum + toCents(lot.gross), 0)),
    perLot: lots.map((lot) => ({ lotName: lot.lotName, tickets: lot.tickets, gross: lot.gross })),
  }));
}

/**
 * The back office's sales figures, from the orders kept here: of one event, or of every event with a line per
 * event, and what coupons took off the paid orders. Over every event, check-ins count only the events that started.
 */
export async function salesFigures(
  deps: Pick<OrdersDeps, 'db'>,
  eventId: string | undefined,
  now = new Date(),
): Promise<SalesView> {
  const [groups, events, days, typeLots, coupons] = await Promise.all([
    orderGroups(deps.db, eventId),
    soldEvents(deps.db, eventId),
    salesPerDay(deps.db, EVENT_TIME_ZONE, eventId),
    eventId ? ticketsPerTypeAndLot(deps.db, eventId) : [],
    discountsPerCoupon(deps.db, eventId),
  ]);
  const started = new Set(events.filter((event) => event.date <= now).map((event) => event.eventId));
  const total = tally(groups);
  // One event's door counts as they are; over every event, events yet to start would only dilute the ratio.
  const atDoor = eventId ? total : tally(groups.filter((group) => started.has(group.eventId)));
  const byEvent = Map.groupBy(groups, (group) => group.eventId);
  const perEvent = eventId
    ? []
    : events.map((event) => eventLine(event, byEvent.get(event.eventId) ?? [])).sort(byDate);
  const [only] = events;
  return {
    event: eventId ? { id: eventId, title: only?.title ?? null, date: only ? only.date.toISOString() : null } : null,
    gross: fromCents(total.grossCents),
    fee: fromCents(total.grossCents - total.netCents),
    net: fromCents(total.netCents),
    perType: perType(typeLots),
    refunded: fromCents(total.refundedCents),
    // Coupons' discounts are already out of `gross` (what was paid): shown apart, in all and by coupon.
    discounts: fromCents(coupons.reduce((sum, coupon) => sum + toCents(coupon.discount), 0)),
    perCoupon: coupons,
    orders: { byStatus: total.byStatus, byMethod: total.byMethod },
    tickets: { paid: boughtOf(total), courtesy: total.ticketsByMethod.courtesy },
    perDay: days.map((day) => ({ date: day.date, orders: day.orders, gross: day.amount })),
    checkIns: { eventStarted: started.size > 0, checkedIn: atDoor.checkedIn, sold: soldOf(atDoor) },
    perEvent,
  };
}
