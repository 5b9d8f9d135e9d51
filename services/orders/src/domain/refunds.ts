import { conflict, notFound } from '@ticketing/platform';
import { WITHDRAWAL_DAYS } from '@ticketing/proto';
import { findOrder, findOwnOrder, oweRequestedRefund } from '../data/orders-repository.ts';
import { hasMoney, isUuid, messages, type Order, type OrdersDeps, type RefundReason } from './order.ts';
import { sendOwedRefund } from './owed-refunds.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function refuseNotRefundable(order: Order): never {
  if (order.status === 'refunded') throw conflict(messages.alreadyRefunded);
  if (order.status !== 'paid') throw conflict(messages.refundNotPaid);
  throw conflict(messages.nothingToRefund);
}

/**
 * Why the buyer may not withdraw from the order at `now`, or null when they may (CDC art. 49): a paid purchase,
 * within 7 days of its payment and before the event starts.
 */
export function withdrawalRefusal(order: Order, now: Date): string | null {
  if (order.status === 'refunded') return messages.alreadyRefunded;
  if (order.status !== 'paid' || !order.paidAt) return messages.refundNotPaid;
  if (!hasMoney(order)) return messages.nothingToRefund;
  if (order.event.date.getTime() <= now.getTime()) return messages.withdrawalEventStarted;
  if (order.paidAt.getTime() + WITHDRAWAL_DAYS * DAY_MS <= now.getTime()) return messages.withdrawalTooLate;
  return null;
}

/**
 * The order's money is to go back in full: one conditional statement makes it refunded and owed (a double click or a
 * second administrator finds it refunded already), then payments is asked at once, outside any transaction. If that
 * fails the retry job asks again; order.refunded follows once payments has given the money back.
 */
async function refund(
  deps: OrdersDeps,
  order: Order,
  request: { reason: RefundReason; by: string; note: string | null },
): Promise<Order> {
  const owed = await oweRequestedRefund(deps.db, order.id, request);
  if (!owed) refuseNotRefundable((await findOrder(deps.db, order.id))!);
  deps.logger.info({ orderId: owed.id, reason: request.reason, requestedBy: request.by }, 'refund requested');
  await sendOwedRefund(deps, owed.id);
  return (await findOrder(deps.db, owed.id))!;
}

/** An administrator refunds a paid order (bought or promotional) in full, with their reason kept on the order. */
export async function refundByAdmin(deps: OrdersDeps, orderId: string, adminId: string, note: string): Promise<Order> {
  const order = isUuid(orderId) ? await findOrder(deps.db, orderId) : undefined;
  if (!order) throw notFound(messages.orderNotFound);
  if (order.status !== 'paid' || !hasMoney(order)) refuseNotRefundable(order);
  return refund(deps, order, { reason: 'refund', by: adminId, note });
}

/** The buyer withdraws from their own purchase (CDC art. 49); anyone else's order is "not found". */
export async function withdraw(deps: OrdersDeps, orderId: string, userId: string): Promise<Order> {
  const order = isUuid(orderId) ? await findOwnOrder(deps.db, orderId, userId) : undefined;
  if (!order) throw notFound(messages.orderNotFound);
  const refusal = withdrawalRefusal(order, new Date());
  if (refusal) throw conflict(refusal);
  return refund(deps, order, { reason: 'withdrawal', by: userId, note: null });
}
