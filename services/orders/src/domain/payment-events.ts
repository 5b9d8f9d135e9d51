import { CollaboratorError } from '@ticketing/platform';
import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { clearRefundOwed, lockOrder, recordRefundReason, transition } from '../data/orders-repository.ts';
import {
  announceCancelled,
  announcePaid,
  announceRefunded,
  lateHoldIdOf,
  type Order,
  type OrdersDeps,
} from './order.ts';

type Deps = Pick<OrdersDeps, 'outbox' | 'logger' | 'catalog'> & {
  /** The job that asks payments for owed refunds: woken once one is recorded. */
  refunds: { wake(): void };
};
type PaymentEvent = { orderId: string; paymentId: string; providerStatus: string };

type PaymentTopic = 'payment.confirmed' | 'payment.failed' | 'payment.refunded' | 'payment.overdue';

/**
 * The handler of one payment event, with the signature every consumer of the bus takes: `handle` gets the order the
 * event names, locked; an event for an unknown order is logged and ignored.
 */
function withLockedOrder<D extends Pick<Deps, 'logger'>, T extends PaymentTopic>(
  topic: T,
  handle: (deps: D, trx: Knex.Transaction, order: Order, payment: EventPayload<T>) => Promise<void>,
) {
  return async (deps: D, trx: Knex.Transaction, payment: EventPayload<T>): Promise<void> => {
    const order = await lockOrder(trx, payment.orderId);
    if (!order) return deps.logger.warn({ orderId: payment.orderId, topic }, 'event for an unknown order ignored');
    return handle(deps, trx, order, payment);
  };
}

/** An event about a charge other than the one the order is paid (or to be paid) with. */
const isOtherCharge = (order: Order, payment: PaymentEvent) =>
  order.asaasPaymentId !== null && order.asaasPaymentId !== payment.paymentId;

/** A conditional move refused on an order this transaction holds locked: a bug, never a race. */
export function changedUnderLock(order: Order): never {
  throw new Error(`order ${order.id} changed under its lock`);
}

async function markPaid(
  deps: Deps,
  trx: Knex.Transaction,
  order: Order,
  payment: EventPayload<'payment.confirmed'>,
  late: boolean,
): Promise<void> {
  const paid = await transition(trx, order.id, [order.status], 'paid', {
    paid_at: new Date(payment.paidAt),
    asaas_payment_id: order.asaasPaymentId ?? payment.paymentId,
    net_amount: payment.netValue ?? null,
  });
  if (!paid) changedUnderLock(order);
  await announcePaid(deps.outbox, trx, paid);
  deps.logger.info({ orderId: paid.id, late }, 'order paid');
}

/**
 * The provider says the order is paid. A pending order becomes paid. An order that expired or was cancelled
 * before the money arrived takes a spot again if there is one (and is paid), or owes the money back (refunded).
 * A paid or refunded order, or one whose charge was already given back, stays as it is.
 */
export const paymentConfirmed = withLockedOrder('payment.confirmed', async (deps: Deps, trx, order, payment) => {
  if (order.status === 'pending') return markPaid(deps, trx, order, payment, false);
  if (order.status === 'paid' || order.status === 'refunded' || order.refundReason) {
    deps.logger.info(
      { orderId: order.id, status: order.status, refundReason: order.refundReason },
      'payment confirmation ignored',
    );
    return;
  }
  // Late payment: the spot was (or is being) released when the order expired or was cancelled.
  try {
    await deps.catalog.hold(order.eventId, lateHoldIdOf(order.id));
  } catch (error) {
    // Anything but a refusal (the catalog is down) is thrown, and the event is delivered again later.
    if (!(error instanceof CollaboratorError && (error.status === 409 || error.status === 404))) throw error;
    await oweRefund(deps, trx, order, payment);
    return;
  }
  return markPaid(deps, trx, order, payment, true);
});

/**
 * A late payment with no spot left: the order is refunded now, and the refund owed is recorded with it. Payments is
 * asked after this commits, by `sendOwedRefunds`, and again until it has done it: a payments outage never leaves the
 * buyer with neither ticket nor money, nor holds up other orders' events.
 */
async function oweRefund(deps: Deps, trx: Knex.Transaction, order: Order, payment: EventPayload<'payment.confirmed'>) {
  const refunded = await transition(trx, order.id, [order.status], 'refunded', {
    asaas_payment_id: order.asaasPaymentId ?? payment.paymentId,
    refund_reason: 'late_payment',
    refund_owed_since: trx.fn.now(),
  });
  if (!refunded) changedUnderLock(order);
  trx.executionPromise.then(
    () => deps.refunds.wake(),
    () => {},
  );
  deps.logger.info({ orderId: refunded.id, previousStatus: order.status, reason: 'late_payment' }, 'order refunded');
}

/** A pending order whose charge will not pay it: cancelled, and order.cancelled gives the spot back. */
async function cancelUnpaid(
  deps: Deps,
  trx: Knex.Transaction,
  order: Order,
  payment: PaymentEvent,
  reason: 'payment_failed' | 'payment_refunded',
  changes: Record<string, unknown> = {},
): Promise<void> {
  const cancelled = await transition(trx, order.id, ['pending'], 'cancelled', changes);
  if (!cancelled) changedUnderLock(order);
  await announceCancelled(deps.outbox, trx, cancelled, cancelled.asaasPaymentId ?? payment.paymentId);
  deps.logger.info({ orderId: cancelled.id, reason, providerStatus: payment.providerStatus }, 'order cancelled');
}

/** The charge will not be paid: a pending order is cancelled (the spot goes back). Nothing else ever moves back. */
export const paymentFailed = withLockedOrder('payment.failed', async (deps: Deps, trx, order, payment) => {
  const otherCharge = isOtherCharge(order, payment);
  if (order.status !== 'pending' || otherCharge) {
    deps.logger.info(
      { orderId: order.id, status: order.status, providerStatus: payment.providerStatus, otherCharge },
      'payment failure ignored',
    );
    return;
  }
  await cancelUnpaid(deps, trx, order, payment, 'payment_failed');
});

/**
 * The money of the order's charge went back (refunded, or disputed by the card holder). A paid order is refunded:
 * order.refunded cancels its ticket and frees its spot. A pending order is cancelled, as when its payment fails. A
 * cancelled or expired order only keeps the reason, so a confirmation of that charge arriving later never pays it.
 * An order whose money was owed back (a late payment, a refund, a withdrawal, a cancelled event) is settled: the
 * money went back. Anything else is already settled.
 */
export const paymentRefunded = withLockedOrder('payment.refunded', async (deps: Deps, trx, order, payment) => {
  const context = { orderId: order.id, status: order.status, providerStatus: payment.providerStatus };
  if (isOtherCharge(order, payment)) {
    deps.logger.info({ ...context, otherCharge: true }, 'payment refund ignored');
    return;
  }
  const reason = { refund_reason: payment.reason };
  if (order.status === 'paid') {
    const refunded = await transition(trx, order.id, ['paid'], 'refunded', reason);
    if (!refunded) changedUnderLock(order);
    await announceRefunded(deps.outbox, trx, refunded);
    deps.logger.info({ orderId: order.id, previousStatus: 'paid', reason: payment.reason }, 'order refunded');
  } else if (order.status === 'pending') {
    await cancelUnpaid(deps, trx, order, payment, 'payment_refunded', reason);
  } else if (order.refundOwedSince) {
    await settleOwedRefund(deps, trx, order.id);
  } else if (!order.refundReason) {
    await recordRefundReason(trx, order.id, payment.reason);
    deps.logger.info({ ...context, reason: payment.reason }, 'payment refund recorded');
  } else {
    deps.logger.info(context, 'payment refund ignored');
  }
});

/** Payments gave owed money back (a late payment, a refund, a withdrawal, a cancelled event): the debt is cleared and order.refunded tells the buyer. */
export async function settleOwedRefund(
  deps: Pick<Deps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  orderId: string,
): Promise<boolean> {
  const settled = await clearRefundOwed(trx, orderId);
  if (!settled) return false;
  await announceRefunded(deps.outbox, trx, settled);
  deps.logger.info({ orderId, reason: settled.refundReason }, 'owed refund settled');
  return true;
}

/**
 * The due date passed. The order's own payment window decides when it expires (the sweep), and a boleto may
 * still be paid late, so this only leaves a trace; after payment it is ignored.
 */
export const paymentOverdue = withLockedOrder('payment.overdue', async (deps: Pick<Deps, 'logger'>, _trx, order) => {
  deps.logger.info(
    { orderId: order.id, status: order.status },
    order.status === 'pending' ? 'payment overdue' : 'payment overdue ignored',
  );
});
