import { AppError, conflict, notFound, tooManyRequests } from '@ticketing/platform';
import type { ChargeStatusView } from '@ticketing/proto';
import { findOwnOrder, listOwnOrders, transition } from '../data/orders-repository.ts';
import { announceCancelled, messages, type Order, type OrdersDeps } from './order.ts';
import { readOrders, type OrderRead } from './order-reads.ts';

export const ORDERS_PAGE_SIZE = 10;
/** A buyer may ask the provider about one order at most this often. */
export const CHECK_INTERVAL_SECONDS = 10;

export const checkCooldownKey = (orderId: string) => `orders:check-status:${orderId}`;

/**
 * The caller's orders, newest first, ten per page, with their tickets and how to pay the pending ones; at least one
 * page even when there is none.
 */
export async function listOrders(
  deps: Pick<OrdersDeps, 'db' | 'payments' | 'logger'>,
  userId: string,
  page: number,
): Promise<{ orders: OrderRead[]; totalPages: number }> {
  const { orders, total } = await listOwnOrders(deps.db, userId, {
    offset: (page - 1) * ORDERS_PAGE_SIZE,
    limit: ORDERS_PAGE_SIZE,
  });
  return { orders: await readOrders(deps, orders), totalPages: Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE)) };
}

/** The caller's own order; anyone else's is "not found", exactly as one that does not exist. */
async function ownOrder(deps: Pick<OrdersDeps, 'db'>, orderId: string, userId: string): Promise<Order> {
  const order = await findOwnOrder(deps.db, orderId, userId);
  if (!order) throw notFound(messages.orderNotFound);
  return order;
}

function refuseNotPending(order: Order): never {
  throw conflict(order.status === 'paid' ? messages.alreadyPaid : messages.notPending);
}

/**
 * The buyer gives up a pending order. One conditional statement moves it to cancelled; `order.cancelled` goes in
 * the same transaction, and from it the catalog releases the spot and payments deletes the charge.
 */
export async function cancelOrder(deps: OrdersDeps, orderId: string, userId: string): Promise<void> {
  const order = await ownOrder(deps, orderId, userId);
  if (order.status !== 'pending') refuseNotPending(order);
  const cancelled = await deps.db.transaction(async (trx) => {
    const changed = await transition(trx, order.id, ['pending'], 'cancelled');
    if (changed) await announceCancelled(deps.outbox, trx, changed);
    return changed;
  });
  if (!cancelled) {
    // Paid, expired or cancelled while we looked: answer what it is now.
    refuseNotPending(await ownOrder(deps, orderId, userId));
  }
  deps.logger.info({ orderId: order.id, reason: 'buyer' }, 'order cancelled');
}

/**
 * The buyer asks whether the payment arrived. Payments asks the provider once; a paid charge publishes
 * `payment.confirmed` by itself, which moves the order exactly as a webhook would. At most once every ten seconds
 * per order, so the provider is not asked in a loop.
 */
export async function checkPaymentStatus(deps: OrdersDeps, orderId: string, userId: string): Promise<string> {
  const order = await ownOrder(deps, orderId, userId);
  if (order.status === 'paid') return messages.paymentConfirmed;
  if (order.status !== 'pending') throw conflict(messages.notCheckable);
  const first = await deps.redis.set(checkCooldownKey(order.id), '1', 'EX', CHECK_INTERVAL_SECONDS, 'NX');
  if (first !== 'OK') throw tooManyRequests(messages.checkTooSoon);
  if (order.asaasPaymentId === null) return messages.paymentPending;
  let status: ChargeStatusView;
  try {
    status = await deps.payments.checkCharge(order.id);
  } catch (error) {
    deps.logger.warn({ orderId: order.id, err: error }, 'payment status check failed');
    throw new AppError(502, messages.checkFailed);
  }
  deps.logger.info({ orderId: order.id, paid: status.paid, providerStatus: status.providerStatus }, 'payment checked');
  return status.paid ? messages.paymentConfirmed : messages.paymentPending;
}
