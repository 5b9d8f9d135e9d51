import { AppError, type Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { lockCharge, updateCharge } from '../data/charges-repository.ts';
import type { PaymentsDeps } from './charge.ts';
import { applyOutcome, outcomeOfPayment } from './provider-outcome.ts';

/**
 * An order that was cancelled or expired no longer wants its charge: a pending one is deleted at the provider
 * (once: the charge is then closed as cancelled, which a later PAYMENT_DELETED does not re-announce). A charge
 * already paid is left alone: orders decides what to do with that money.
 */
export async function dropChargeOfOrder(
  deps: PaymentsDeps,
  trx: Knex.Transaction,
  order: EventPayload<'order.cancelled'>,
  reason: 'order.cancelled' | 'order.expired',
): Promise<void> {
  const log = { orderId: order.orderId, reason };
  const charge = await lockCharge(trx, order.orderId);
  if (!charge) {
    deps.logger.info(log, 'no charge for the order');
    return;
  }
  if (charge.status === 'paid' || charge.status === 'refunded') {
    deps.logger.warn({ ...log, paymentId: charge.paymentId, state: charge.status }, 'charge already paid: left alone');
    return;
  }
  if (charge.status === 'failed' || charge.status === 'cancelled') {
    deps.logger.info({ ...log, paymentId: charge.paymentId, state: charge.status }, 'charge already closed');
    return;
  }
  try {
    await deps.asaas.deletePayment(charge.paymentId);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 422) throw error;
    // Refused: most likely paid in the meantime. What the provider shows now decides.
    const payment = await deps.asaas.getPayment(charge.paymentId);
    const outcome = payment && outcomeOfPayment(payment);
    if (!payment || !outcome) throw error;
    await applyOutcome(deps, trx, charge, outcome, {
      paymentId: payment.id,
      value: payment.value,
      paidAt: new Date(),
      source: 'cancellation',
    });
    deps.logger.warn({ ...log, paymentId: charge.paymentId, providerStatus: payment.status }, 'charge not deleted');
    return;
  }
  await updateCharge(trx, order.orderId, { status: 'cancelled', providerStatus: 'DELETED' });
  deps.logger.info({ ...log, paymentId: charge.paymentId }, 'charge deleted');
}
