import { CollaboratorError } from '@ticketing/platform';
import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { lockOrder, transition } from '../data/orders-repository.ts';
import { announcePaid, lateHoldIdOf, snapshots, type Order, type OrdersDeps } from './order.ts';

type Deps = Pick<OrdersDeps, 'outbox' | 'logger' | 'catalog' | 'payments'>;

async function lockedOrder(deps: Deps, trx: Knex.Transaction, orderId: string, topic: string) {
  const order = await lockOrder(trx, orderId);
  if (!order) deps.logger.warn({ orderId, topic }, 'event for an unknown order ignored');
  return order;
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
  });
  if (!paid) throw new Error(`order ${order.id} changed under its lock`);
  await announcePaid(deps.outbox, trx, paid);
  deps.logger.info({ orderId: paid.id, late }, 'order paid');
}

/**
 * The provider says the order is paid. A pending order becomes paid. An order that expired or was cancelled
 * before the money arrived takes a spot again if there is one (and is paid), or gets its money back (refunded).
 * A paid or refunded order stays as it is: a repeated confirmation changes nothing.
 */
export async function paymentConfirmed(
  deps: Deps,
  trx: Knex.Transaction,
  payment: EventPayload<'payment.confirmed'>,
): Promise<void> {
  const order = await lockedOrder(deps, trx, payment.orderId, 'payment.confirmed');
  if (!order) return;
  if (order.status === 'pending') return markPaid(deps, trx, order, payment, false);
  if (order.status === 'paid' || order.status === 'refunded') {
    deps.logger.info({ orderId: order.id, status: order.status }, 'payment confirmation ignored');
    return;
  }
  // Late payment: the spot was (or is being) released when the order expired or was cancelled.
  try {
    await deps.catalog.hold(order.eventId, lateHoldIdOf(order.id));
  } catch (error) {
    // Anything but a refusal (the catalog is down) is thrown, and the event is delivered again later.
    if (!(error instanceof CollaboratorError && (error.status === 409 || error.status === 404))) throw error;
    await deps.payments.refund(order.id);
    const refunded = await transition(trx, order.id, [order.status], 'refunded', {
      asaas_payment_id: order.asaasPaymentId ?? payment.paymentId,
    });
    if (!refunded) throw new Error(`order ${order.id} changed under its lock`);
    await deps.outbox.add(trx, 'order.refunded', refunded.id, {
      orderId: refunded.id,
      orderNumber: refunded.orderNumber,
      userId: refunded.userId,
      amount: refunded.amount,
      ...snapshots(refunded),
    });
    deps.logger.info({ orderId: refunded.id, previousStatus: order.status, reason: error.status }, 'order refunded');
    return;
  }
  return markPaid(deps, trx, order, payment, true);
}

/** The charge will not be paid: a pending order is cancelled (the spot goes back). Nothing else ever moves back. */
export async function paymentFailed(
  deps: Deps,
  trx: Knex.Transaction,
  payment: EventPayload<'payment.failed'>,
): Promise<void> {
  const order = await lockedOrder(deps, trx, payment.orderId, 'payment.failed');
  if (!order) return;
  const otherCharge = order.asaasPaymentId !== null && order.asaasPaymentId !== payment.paymentId;
  if (order.status !== 'pending' || otherCharge) {
    deps.logger.info(
      { orderId: order.id, status: order.status, providerStatus: payment.providerStatus, otherCharge },
      'payment failure ignored',
    );
    return;
  }
  const cancelled = await transition(trx, order.id, ['pending'], 'cancelled');
  if (!cancelled) throw new Error(`order ${order.id} changed under its lock`);
  await deps.outbox.add(trx, 'order.cancelled', cancelled.id, {
    orderId: cancelled.id,
    userId: cancelled.userId,
    eventId: cancelled.eventId,
    paymentId: cancelled.asaasPaymentId ?? payment.paymentId,
  });
  deps.logger.info(
    { orderId: cancelled.id, reason: 'payment_failed', providerStatus: payment.providerStatus },
    'order cancelled',
  );
}

/**
 * The due date passed. The order's own payment window decides when it expires (the sweep), and a boleto may
 * still be paid late, so this only leaves a trace; after payment it is ignored.
 */
export async function paymentOverdue(
  deps: Deps,
  trx: Knex.Transaction,
  payment: EventPayload<'payment.overdue'>,
): Promise<void> {
  const order = await lockedOrder(deps, trx, payment.orderId, 'payment.overdue');
  if (!order) return;
  deps.logger.info(
    { orderId: order.id, status: order.status },
    order.status === 'pending' ? 'payment overdue' : 'payment overdue ignored',
  );
}
