import type { ChargeView } from '@ticketing/proto';
import { findItems, findTicketViews, type TicketView } from '../data/orders-repository.ts';
import type { Order, OrderItem, OrdersDeps } from './order.ts';

/** An order as it is answered: its lines, its issued tickets (tickets' view), and how to pay it while pending. */
export interface OrderRead {
  order: Order;
  items: OrderItem[];
  tickets: TicketView[];
  /** The charge payments keeps, for a pending order; null otherwise, or when payments did not answer. */
  payment: ChargeView | null;
}

/**
 * The orders with their lines and tickets, and how to pay the pending ones, asked of payments (which keeps it with
 * the charge) after the reads here, with no transaction open. Payments not answering does not keep the orders from
 * being answered: their `payment` is null and the buyer sees them, to ask again later.
 */
export async function readOrders(
  deps: Pick<OrdersDeps, 'db' | 'payments' | 'logger'>,
  orders: Order[],
): Promise<OrderRead[]> {
  const reads = await withLinesAndTickets(deps.db, orders);
  const unpaid = orders.filter((order) => order.status === 'pending' && order.asaasPaymentId !== null);
  const charges = await paymentsOf(
    deps,
    unpaid.map((order) => order.id),
  );
  return reads.map((read) => ({
    ...read,
    payment: read.order.status === 'pending' ? (charges.get(read.order.id) ?? null) : null,
  }));
}

/** The orders with their lines and their issued tickets, read here. */
async function withLinesAndTickets(db: OrdersDeps['db'], orders: Order[]): Promise<Omit<OrderRead, 'payment'>[]> {
  const ids = orders.map((order) => order.id);
  if (ids.length === 0) return [];
  const [items, tickets] = await Promise.all([findItems(db, ids), findTicketViews(db, ids)]);
  return orders.map((order) => ({ order, items: items.get(order.id)!, tickets: tickets.get(order.id)! }));
}

async function paymentsOf(
  deps: Pick<OrdersDeps, 'payments' | 'logger'>,
  orderIds: string[],
): Promise<Map<string, ChargeView>> {
  if (orderIds.length === 0) return new Map();
  try {
    return await deps.payments.findCharges(orderIds);
  } catch (error) {
    deps.logger.warn({ orderIds, err: error }, 'payment instructions unavailable');
    return new Map();
  }
}

/** Paid or refunded orders, answered without asking payments: nothing is left to pay. */
export async function readSettled(deps: Pick<OrdersDeps, 'db'>, order: Order): Promise<OrderRead> {
  const [read] = await withLinesAndTickets(deps.db, [order]);
  return { ...read!, payment: null };
}
