import type { ChargeView } from '@ticketing/proto';
import type { ListedCharge } from '../clients/payments.ts';
import { findItems, findTicketViews, type TicketView } from '../data/orders-repository.ts';
import type { Order, OrderItem, OrdersDeps } from './order.ts';

/** An order as it is answered: its lines, its issued tickets (tickets' view), and how to pay it while pending. */
export interface OrderRead {
  order: Order;
  items: OrderItem[];
  tickets: TicketView[];
  /** How to pay a pending order, from its charge; null otherwise, or when payments did not answer. */
  payment: ChargeView | null;
  /** The order's charge as payments lists it (its nota fiscal, its refund); null without one, or unknown now. */
  charge: ListedCharge | null;
}

/**
 * The orders with their lines and tickets, and their charges (how to pay the pending ones, the nota fiscal, the
 * refund), asked of payments (which keeps them) in one call after the reads here, with no transaction open. Payments
 * not answering does not keep the orders from being answered: their `payment` and `charge` are null and the buyer
 * sees them, to ask again later.
 */
export async function readOrders(
  deps: Pick<OrdersDeps, 'db' | 'payments' | 'logger'>,
  orders: Order[],
): Promise<OrderRead[]> {
  const reads = await withLinesAndTickets(deps.db, orders);
  const charged = orders.filter((order) => order.asaasPaymentId !== null);
  const charges = await chargesOf(
    deps,
    charged.map((order) => order.id),
  );
  return reads.map((read) => {
    const charge = charges.get(read.order.id) ?? null;
    return { ...read, charge, payment: read.order.status === 'pending' ? charge : null };
  });
}

/** The orders with their lines and their issued tickets, read here. */
async function withLinesAndTickets(
  db: OrdersDeps['db'],
  orders: Order[],
): Promise<Omit<OrderRead, 'payment' | 'charge'>[]> {
  const ids = orders.map((order) => order.id);
  if (ids.length === 0) return [];
  const [items, tickets] = await Promise.all([findItems(db, ids), findTicketViews(db, ids)]);
  return orders.map((order) => ({ order, items: items.get(order.id)!, tickets: tickets.get(order.id)! }));
}

async function chargesOf(
  deps: Pick<OrdersDeps, 'payments' | 'logger'>,
  orderIds: string[],
): Promise<Map<string, ListedCharge>> {
  if (orderIds.length === 0) return new Map();
  try {
    return await deps.payments.findCharges(orderIds);
  } catch (error) {
    deps.logger.warn({ orderIds, err: error }, 'payment instructions unavailable');
    return new Map();
  }
}

/** One order as it is answered (see `readOrders`). */
export async function readOrder(
  deps: Pick<OrdersDeps, 'db' | 'payments' | 'logger'>,
  order: Order,
): Promise<OrderRead> {
  const [read] = await readOrders(deps, [order]);
  return read!;
}
