import { claimOverdue, transition } from '../data/orders-repository.ts';
import type { OrdersDeps } from './order.ts';

/**
 * Expires pending orders whose payment window is over, publishing `order.expired` for each (the catalog releases
 * the spot, payments deletes the charge). Rows are claimed with FOR UPDATE SKIP LOCKED, so replicas sweeping at
 * the same moment share the work and an order being paid right now is left to its payment. Answers the ids.
 */
export async function expireOverdueOrders(
  deps: Pick<OrdersDeps, 'db' | 'outbox' | 'logger'>,
  { now = new Date(), batchSize = 100 }: { now?: Date; batchSize?: number } = {},
): Promise<string[]> {
  const expired: string[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (trx) => {
      const ids = await claimOverdue(trx, now, batchSize);
      const done: string[] = [];
      for (const id of ids) {
        const order = await transition(trx, id, ['pending'], 'expired');
        if (!order) continue;
        await deps.outbox.add(trx, 'order.expired', order.id, {
          orderId: order.id,
          userId: order.userId,
          eventId: order.eventId,
          paymentId: order.asaasPaymentId,
        });
        done.push(order.id);
      }
      return { claimed: ids.length, done };
    });
    for (const orderId of batch.done) deps.logger.info({ orderId }, 'order expired');
    expired.push(...batch.done);
    if (batch.claimed < batchSize) return expired;
  }
}
