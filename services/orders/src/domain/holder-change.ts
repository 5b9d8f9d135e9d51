import { AppError, conflict, notFound } from '@ticketing/platform';
import { HOLDER_CHANGE_CLOSES_HOURS, type Holder } from '@ticketing/proto';
import { changeHolder, findOwnOrder, lockItem, lockOrder } from '../data/orders-repository.ts';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { readOrder, type OrderRead } from './order-reads.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Why the buyer may not hand the order's tickets to other holders at `now`, or null when they may: a paid order with
 * no withdrawal waiting, until 48 hours before the event (as the order was sold).
 */
export function holderChangeRefusal(order: Order, now: Date): string | null {
  if (order.status !== 'paid' || order.withdrawalRequestedAt) return messages.holderChangeNotPaid;
  if (order.event.date.getTime() - HOLDER_CHANGE_CLOSES_HOURS * HOUR_MS <= now.getTime()) {
    return messages.holderChangeClosed;
  }
  return null;
}

/**
 * The buyer hands the ticket of line `index` to another holder; anyone else's order is "not found". The line and
 * `order.holder-changed` (tickets reissues the ticket to them, mail sends it) are written in one transaction, under
 * the order's lock: two changes at once are made one after the other, the last one standing, each announced.
 */
export async function changeItemHolder(
  deps: OrdersDeps,
  change: { orderId: string; index: number; userId: string; holder: Holder },
): Promise<OrderRead> {
  if (!(await findOwnOrder(deps.db, change.orderId, change.userId))) throw notFound(messages.orderNotFound);
  const order = await deps.db.transaction(async (trx) => {
    const locked = (await lockOrder(trx, change.orderId))!;
    const refusal = holderChangeRefusal(locked, new Date());
    if (refusal) throw conflict(refusal);
    const item = await lockItem(trx, locked.id, change.index);
    if (!item) throw notFound(messages.itemNotFound);
    const cpf = change.holder.cpf ?? null;
    if (item.requiresDocument && !cpf) throw new AppError(422, messages.holderCpfRequired(item.typeName));
    const changed = await changeHolder(trx, locked.id, item.index, { ...change.holder, cpf });
    await deps.outbox.add(trx, 'order.holder-changed', locked.id, {
      orderId: locked.id,
      orderNumber: locked.orderNumber,
      userId: locked.userId,
      eventId: locked.eventId,
      item: changed,
      previous: item.holder,
      changedAt: new Date().toISOString(),
    });
    return locked;
  });
  deps.logger.info({ orderId: order.id, index: change.index }, 'ticket holder changed');
  return readOrder(deps, order);
}
