import { AppError, conflict, notFound, type Knex, type Outbox } from '@ticketing/platform';
import { DOORS_OPEN_MINUTES_BEFORE_EVENT, WITHDRAWAL_DAYS, type EventPayload } from '@ticketing/proto';
import {
  dropWithdrawal,
  findOrder,
  findOwnOrder,
  lockOrder,
  oweRequestedRefund,
  requestWithdrawal,
} from '../data/orders-repository.ts';
import { hasMoney, messages, snapshots, type Order, type OrdersDeps } from './order.ts';
import { sendOwedRefundsOf } from './owed-refunds.ts';
import { readOrder, type OrderRead } from './order-reads.ts';
import { changedUnderLock } from './payment-events.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** When the doors of an event starting at `startsAt` open. */
export const doorsOpenAt = (startsAt: Date) => new Date(startsAt.getTime() - DOORS_OPEN_MINUTES_BEFORE_EVENT * 60_000);

/** Why the order itself rules a withdrawal out, whatever the event's date: null when it does not. */
function orderRefusal(order: Order, now: Date): string | null {
  if (order.status === 'refunded') return messages.alreadyRefunded;
  if (order.status !== 'paid' || !order.paidAt) return messages.refundNotPaid;
  if (!hasMoney(order)) return messages.nothingToRefund;
  if (order.firstCheckedInAt) return messages.withdrawalAfterEntry;
  if (order.withdrawalRequestedAt) return messages.withdrawalInProgress;
  if (order.paidAt.getTime() + WITHDRAWAL_DAYS * DAY_MS <= now.getTime()) return messages.withdrawalTooLate;
  return null;
}

function timingRefusal(eventStartsAt: Date, now: Date): string | null {
  if (eventStartsAt.getTime() <= now.getTime()) return messages.withdrawalEventStarted;
  if (doorsOpenAt(eventStartsAt).getTime() <= now.getTime()) return messages.withdrawalDoorsOpen;
  return null;
}

/**
 * Why the buyer may not withdraw from the order at `now`, or null when they may (CDC art. 49): a paid purchase,
 * within 7 days of its payment, whose ticket has not been admitted, with no withdrawal waiting already, and whose
 * event's doors have not opened yet. `eventStartsAt` is the order's copy of the date unless the caller read the
 * catalog's current one.
 */
export function withdrawalRefusal(order: Order, now: Date, eventStartsAt = order.event.date): string | null {
  return orderRefusal(order, now) ?? timingRefusal(eventStartsAt, now);
}

/**
 * When the order's event starts now, as the catalog says (a reschedule is followed; the order keeps the date it was
 * sold with). A cancelled or unknown event answers in the catalog's words; the catalog not answering is a 503, so no
 * withdrawal is ever decided on a stale date.
 */
async function currentStart(deps: Pick<OrdersDeps, 'catalog' | 'logger'>, order: Order): Promise<Date> {
  try {
    return new Date((await deps.catalog.getEvent(order.eventId)).date);
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.logger.warn({ err: error, orderId: order.id, eventId: order.eventId }, 'catalog unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
}

/** Writes `order.withdrawal-requested`: tickets voids the ticket unless the door admitted it first. */
async function announceWithdrawal(outbox: Outbox, trx: Knex.Transaction, order: Order): Promise<void> {
  await outbox.add(trx, 'order.withdrawal-requested', order.id, {
    orderId: order.id,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    requestedAt: order.withdrawalRequestedAt!.toISOString(),
    ...snapshots(order),
  });
}

/**
 * The buyer withdraws from their own purchase (CDC art. 49); anyone else's order is "not found". The event's start
 * is read from the catalog. The withdrawal is noted (one conditional statement: a check-in recorded first refuses
 * it) and announced in the same transaction; the money goes back only once tickets has voided the ticket
 * (`withdrawalDecided`), so the door and the refund never both win.
 */
export async function withdraw(deps: OrdersDeps, orderId: string, userId: string): Promise<OrderRead> {
  const order = await findOwnOrder(deps.db, orderId, userId);
  if (!order) throw notFound(messages.orderNotFound);
  const refusal = orderRefusal(order, new Date()) ?? timingRefusal(await currentStart(deps, order), new Date());
  if (refusal) throw conflict(refusal);
  const requested = await deps.db.transaction(async (trx) => {
    const noted = await requestWithdrawal(trx, order.id);
    if (noted) await announceWithdrawal(deps.outbox, trx, noted);
    return noted;
  });
  if (!requested)
    throw conflict(orderRefusal((await findOrder(deps.db, order.id))!, new Date()) ?? messages.refundNotPaid);
  deps.logger.info({ orderId: order.id, requestedBy: userId }, 'withdrawal requested');
  return readOrder(deps, requested);
}

/**
 * Tickets' answer to a withdrawal. The ticket is void: the money is owed back (payments is asked once this commits;
 * the retry job asks again if that fails) and order.refunded follows as for any refund. The door admitted it first:
 * the withdrawal is refused, the order stays paid (mail tells the buyer). An answer with no withdrawal waiting (an
 * administrator refunded the order meanwhile, or a redelivery) changes nothing.
 */
export async function withdrawalDecided(
  deps: OrdersDeps,
  trx: Knex.Transaction,
  decision: EventPayload<'ticket.withdrawal-decided'>,
): Promise<void> {
  const order = await lockOrder(trx, decision.orderId);
  const fields = { orderId: decision.orderId, ticketId: decision.ticketId, outcome: decision.outcome };
  if (!order?.withdrawalRequestedAt || order.status !== 'paid') {
    deps.logger.info(fields, 'withdrawal decision with no withdrawal waiting');
    return;
  }
  if (decision.outcome === 'admitted') {
    await dropWithdrawal(trx, order.id, new Date(decision.usedAt ?? Date.now()));
    deps.logger.info({ ...fields, usedAt: decision.usedAt }, 'withdrawal refused: ticket admitted first');
    return;
  }
  const request = { reason: 'withdrawal' as const, by: order.userId, note: null };
  if (!(await oweRequestedRefund(trx, order.id, request))) changedUnderLock(order);
  deps.logger.info(fields, 'refund requested');
  trx.executionPromise.then(
    () => sendOwedRefundsOf(deps, [order.id]),
    () => {},
  );
}
