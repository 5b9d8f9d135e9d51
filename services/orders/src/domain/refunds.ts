import { conflict, notFound } from '@ticketing/platform';
import { findOrder, oweRequestedRefund } from '../data/orders-repository.ts';
import { hasMoney, messages, type Order, type OrdersDeps, type RefundReason } from './order.ts';
import { readOrder, type OrderRead } from './order-reads.ts';
import { sendOwedRefund } from './owed-refunds.ts';

function refuseNotRefundable(order: Order): never {
  if (order.status === 'refunded') throw conflict(messages.alreadyRefunded);
  if (order.status !== 'paid') throw conflict(messages.refundNotPaid);
  throw conflict(messages.nothingToRefund);
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
export async function refundByAdmin(
  deps: OrdersDeps,
  orderId: string,
  adminId: string,
  note: string,
): Promise<OrderRead> {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw notFound(messages.orderNotFound);
  if (order.status !== 'paid' || !hasMoney(order)) refuseNotRefundable(order);
  return readOrder(deps, await refund(deps, order, { reason: 'refund', by: adminId, note }));
}
