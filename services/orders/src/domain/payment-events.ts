import { CollaboratorError } from '@ticketing/platform';
import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import {
  clearRefundOwed,
  findOrder,
  itemsOf,
  listLatePayments,
  lockOrder,
  noteLatePayment,
  recordRefundReason,
  transition,
} from '../data/orders-repository.ts';
import { sendOwedRefundsOf } from './owed-refunds.ts';
import {
  announceCancelled,
  announcePaid,
  announceRefunded,
  lateHoldIdOf,
  type Order,
  type OrdersDeps,
} from './order.ts';

type Deps = Pick<OrdersDeps, 'outbox' | 'logger' | 'catalog'> & {
  /** The job that places late payments and asks payments for owed refunds: woken once either is recorded. */
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

/** The payment an order is paid with: the event's, or a late one noted until a spot was found for it. */
interface Payment {
  paymentId: string;
  paidAt: Date;
  netAmount: string | null;
}

const paymentOf = (payment: EventPayload<'payment.confirmed'>): Payment => ({
  paymentId: payment.paymentId,
  paidAt: new Date(payment.paidAt),
  netAmount: payment.netValue ?? null,
});

const LATE_PAYMENT_CLEARED = { late_payment_id: null, late_paid_at: null, late_net_amount: null };

async function markPaid(
  deps: Pick<Deps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  order: Order,
  payment: Payment,
  late: boolean,
): Promise<void> {
  const paid = await transition(trx, order.id, [order.status], 'paid', {
    paid_at: payment.paidAt,
    asaas_payment_id: order.asaasPaymentId ?? payment.paymentId,
    net_amount: payment.netAmount,
    ...LATE_PAYMENT_CLEARED,
  });
  if (!paid) changedUnderLock(order);
  await announcePaid(deps.outbox, trx, paid);
  deps.logger.info({ orderId: paid.id, late }, 'order paid');
}

/**
 * The provider says the order is paid. A pending order becomes paid. An order that expired or was cancelled
 * before the money arrived notes the payment: once this commits, the catalog is asked for a spot again (no
 * transaction open meanwhile, see `placeLatePayment`). A paid or refunded order, or one whose charge was already
 * given back, stays as it is.
 */
export const paymentConfirmed = withLockedOrder('payment.confirmed', async (deps: Deps, trx, order, payment) => {
  if (order.status === 'pending') return markPaid(deps, trx, order, paymentOf(payment), false);
  if (order.status === 'paid' || order.status === 'refunded' || order.refundReason) {
    deps.logger.info(
      { orderId: order.id, status: order.status, refundReason: order.refundReason },
      'payment confirmation ignored',
    );
    return;
  }
  if (await noteLatePayment(trx, order.id, paymentOf(payment))) {
    deps.logger.info({ orderId: order.id, status: order.status }, 'late payment noted');
  }
  trx.executionPromise.then(
    () => deps.refunds.wake(),
    () => {},
  );
});

/**
 * Finds a late payment its place, after the event that told it committed: the catalog is asked for a spot again
 * (under an id of its own, one per order), with no transaction open. A spot: the order is paid. None: the order is
 * refunded now and the money owed back, asked of payments at once (and by the retry job until it is done). The
 * catalog not answering leaves the payment noted, for the next round. True when the payment found its place.
 */
export async function placeLatePayment(
  deps: Pick<OrdersDeps, 'db' | 'outbox' | 'logger' | 'catalog' | 'payments'>,
  orderId: string,
): Promise<boolean> {
  const order = await findOrder(deps.db, orderId);
  if (!order?.latePayment) return false;
  let spot: boolean;
  try {
    // As many spots as it has tickets, of their types.
    const items = (await itemsOf(deps.db, order.id)).map(({ ticketTypeId }) => ({ ticketTypeId }));
    await deps.catalog.hold(order.eventId, lateHoldIdOf(order.id), items.length, { items });
    spot = true;
  } catch (error) {
    if (!(error instanceof CollaboratorError && (error.status === 409 || error.status === 404))) {
      deps.logger.warn({ orderId, err: error }, 'late payment not placed yet; retrying later');
      return false;
    }
    spot = false;
  }
  const outcome = await deps.db.transaction(async (trx) => {
    const locked = await lockOrder(trx, orderId);
    if (!locked?.latePayment) return 'settled';
    if (locked.refundReason) {
      // Its charge's money went back meanwhile (payment.refunded): nothing is to be paid.
      await trx('orders').where({ id: orderId }).update(LATE_PAYMENT_CLEARED);
      return 'settled';
    }
    if (spot) await markPaid(deps, trx, locked, locked.latePayment, true);
    else await oweRefund(deps, trx, locked, locked.latePayment);
    return spot ? 'paid' : 'owed';
  });
  if (outcome === 'settled' && spot) {
    await deps.catalog.release(order.eventId, lateHoldIdOf(order.id)).catch((error: unknown) => {
      deps.logger.warn({ orderId, err: error }, 'late hold release failed');
    });
  }
  if (outcome === 'owed') await sendOwedRefundsOf(deps, [orderId]);
  return outcome !== 'settled';
}

/** One round of the retry job: every late payment still waiting for the catalog's answer. */
export async function placeLatePayments(
  deps: Pick<OrdersDeps, 'db' | 'outbox' | 'logger' | 'catalog' | 'payments'>,
  { batchSize = 100 }: { batchSize?: number } = {},
): Promise<void> {
  for (const orderId of await listLatePayments(deps.db, batchSize)) await placeLatePayment(deps, orderId);
}

/**
 * A late payment with no spot left: the order is refunded now, and the refund owed is recorded with it. Payments is
 * asked after this commits, and again until it has done it: a payments outage never leaves the buyer with neither
 * ticket nor money, nor holds up other orders' events.
 */
async function oweRefund(deps: Pick<Deps, 'logger'>, trx: Knex.Transaction, order: Order, payment: Payment) {
  const refunded = await transition(trx, order.id, [order.status], 'refunded', {
    asaas_payment_id: order.asaasPaymentId ?? payment.paymentId,
    refund_reason: 'late_payment',
    refund_owed_since: trx.fn.now(),
    ...LATE_PAYMENT_CLEARED,
  });
  if (!refunded) changedUnderLock(order);
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

/**
 * Payments gave owed money back, or took it to give back once the payer says where (a boleto: `bankDetailsUrl`),
 * for a late payment, a refund, a withdrawal, a cancelled event: the debt is cleared and order.refunded tells the
 * buyer. The later `payment.refunded` of that charge finds the order refunded, owing nothing, and changes nothing.
 */
export async function settleOwedRefund(
  deps: Pick<Deps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  orderId: string,
  bankDetailsUrl: string | null = null,
): Promise<boolean> {
  const settled = await clearRefundOwed(trx, orderId, bankDetailsUrl);
  if (!settled) return false;
  await announceRefunded(deps.outbox, trx, settled, bankDetailsUrl);
  deps.logger.info(
    { orderId, reason: settled.refundReason, bankDetails: bankDetailsUrl !== null },
    'owed refund settled',
  );
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
