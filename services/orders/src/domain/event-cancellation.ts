import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { lockOpenOrdersOfEvent, oweRequestedRefund, transition } from '../data/orders-repository.ts';
import { announceCancelled, announceRefunded, hasMoney, type Order, type OrdersDeps } from './order.ts';
import { sendOwedRefundsOf } from './owed-refunds.ts';
import { changedUnderLock } from './payment-events.ts';

/**
 * The organizers cancelled the event: none of its orders stands. A pending order is cancelled as when its buyer
 * gives it up (catalog releases the spot, payments deletes the charge). A paid order is refunded as an
 * administrator's refund is: owed now, payments asked once this commits (the retry job asks again if that fails),
 * and order.refunded follows with `event_cancelled`. A courtesy order has no money to give back, so it is refunded
 * at once: its order.refunded (R$ 0,00) cancels the ticket and tells the holder. The event's open orders stay locked
 * to the end, and every move is conditional, so an order refunded meanwhile is refunded once and a redelivered
 * event changes nothing.
 */
export async function eventCancelled(
  deps: OrdersDeps,
  trx: Knex.Transaction,
  cancellation: EventPayload<'event.cancelled'>,
): Promise<void> {
  const owed: string[] = [];
  for (const order of await lockOpenOrdersOfEvent(trx, cancellation.eventId)) {
    if (order.status === 'pending') await cancelPending(deps, trx, order);
    else if (hasMoney(order)) owed.push((await oweRefund(deps, trx, order, cancellation)).id);
    else await refundCourtesy(deps, trx, order);
  }
  if (owed.length > 0) {
    trx.executionPromise.then(
      () => sendOwedRefundsOf(deps, owed),
      () => {},
    );
  }
  deps.logger.info({ eventId: cancellation.eventId, refundsOwed: owed.length }, 'orders of cancelled event settled');
}

async function cancelPending(deps: OrdersDeps, trx: Knex.Transaction, order: Order): Promise<void> {
  const cancelled = (await transition(trx, order.id, ['pending'], 'cancelled')) ?? changedUnderLock(order);
  await announceCancelled(deps.outbox, trx, cancelled);
  deps.logger.info({ orderId: order.id, reason: 'event_cancelled' }, 'order cancelled');
}

/** The administrator's words on why the event was cancelled go with the refund, as an administrator's refund keeps its own. */
async function oweRefund(
  deps: OrdersDeps,
  trx: Knex.Transaction,
  order: Order,
  cancellation: EventPayload<'event.cancelled'>,
): Promise<Order> {
  const request = { reason: 'event_cancelled' as const, by: null, note: cancellation.reason };
  const owed = (await oweRequestedRefund(trx, order.id, request)) ?? changedUnderLock(order);
  deps.logger.info({ orderId: order.id, reason: 'event_cancelled' }, 'refund requested');
  return owed;
}

async function refundCourtesy(deps: OrdersDeps, trx: Knex.Transaction, order: Order): Promise<void> {
  const refunded =
    (await transition(trx, order.id, ['paid'], 'refunded', { refund_reason: 'event_cancelled' })) ??
    changedUnderLock(order);
  await announceRefunded(deps.outbox, trx, refunded);
  deps.logger.info({ orderId: order.id, previousStatus: 'paid', reason: 'event_cancelled' }, 'order refunded');
}
