import { AppError, badRequest, conflict, notFound } from '@ticketing/platform';
import type { ChargeRequest } from '@ticketing/proto';
import { findCharge, insertCharge, lockCharge, lockOrderCharges, updateCharge } from '../data/charges-repository.ts';
import { assertChargeOrderId, isOrderId, messages, type Charge, type PaymentsDeps } from './charge.ts';
import { applyOutcome, outcomeOfPayment, PAID_STATUSES } from './provider-outcome.ts';

/**
 * The order's charge at the provider, created once: a repeated call answers the stored charge. Calls for the
 * same order wait for each other (a transaction-scoped advisory lock), and the provider look-up by the order id
 * makes a create whose answer was lost reuse the payment it made.
 */
export async function createCharge(deps: PaymentsDeps, orderId: string, request: ChargeRequest): Promise<Charge> {
  if (!isOrderId(orderId)) throw badRequest(messages.invalidOrderId);
  const stored = await findCharge(deps.db, orderId);
  if (stored) return stored;
  return deps.db.transaction(async (trx) => {
    await lockOrderCharges(trx, orderId);
    const raced = await findCharge(trx, orderId);
    if (raced) return raced;
    const provider = await deps.asaas.createCharge({ orderId, ...request });
    const charge = await insertCharge(trx, {
      orderId,
      paymentId: provider.payment.id,
      customerId: provider.customerId,
      method: request.method,
      value: request.amount,
      providerStatus: provider.payment.status,
      pixQrCode: provider.pixQrCode,
      pixPayload: provider.pixPayload,
      boletoUrl: provider.boletoUrl,
      boletoLine: provider.boletoLine,
      invoiceUrl: provider.invoiceUrl,
      dueDate: request.dueDate,
    });
    deps.logger.info(
      { orderId, paymentId: charge.paymentId, method: charge.method, value: charge.value },
      'charge created',
    );
    return charge;
  });
}

export interface ChargeStatus {
  charge: Charge;
  providerStatus: string;
}

/** Asks the provider once for the payment and applies what it says exactly as a webhook would. */
export async function checkCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeStatus> {
  assertChargeOrderId(orderId);
  const stored = await findCharge(deps.db, orderId);
  if (!stored) throw notFound(messages.chargeNotFound);
  const payment = await deps.asaas.getPayment(stored.paymentId);
  if (!payment) {
    deps.logger.warn({ orderId, paymentId: stored.paymentId }, 'provider does not know the payment');
    return { charge: stored, providerStatus: stored.providerStatus };
  }
  const outcome = outcomeOfPayment(payment);
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    if (!outcome) return locked;
    const { charge: after } = await applyOutcome(deps, trx, locked, outcome, {
      paymentId: payment.id,
      value: payment.value,
      paidAt: new Date(),
      source: 'check',
    });
    return after;
  });
  deps.logger.info(
    { orderId, paymentId: payment.id, providerStatus: payment.status, state: charge.status },
    'charge checked',
  );
  return { charge, providerStatus: payment.deleted ? 'DELETED' : payment.status };
}

/**
 * Gives a paid charge's money back through the provider. The request is noted before the call, so the provider's
 * PAYMENT_REFUNDED notification is recognised as ours; repeating it answers the refunded charge.
 */
export async function refundCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeStatus> {
  assertChargeOrderId(orderId);
  const stored = await deps.db.transaction(async (trx) => {
    const charge = await lockCharge(trx, orderId);
    if (!charge) throw notFound(messages.chargeNotFound);
    if (charge.status === 'refunded') return charge;
    if (charge.status !== 'paid') throw conflict(messages.refundNotPaid);
    return charge.refundRequestedAt ? charge : updateCharge(trx, orderId, { refundRequestedAt: new Date() });
  });
  if (stored.status === 'refunded') return { charge: stored, providerStatus: stored.providerStatus };

  const payment = await deps.asaas.refundPayment(stored.paymentId);
  if (PAID_STATUSES.has(payment.status)) {
    // The provider answered without refunding: nothing changed, the caller may try again.
    throw new AppError(503, messages.providerUnavailable);
  }
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    if (locked.status !== 'paid') return locked;
    return updateCharge(trx, orderId, { status: 'refunded', providerStatus: payment.status, refundedAt: new Date() });
  });
  deps.logger.info({ orderId, paymentId: stored.paymentId, providerStatus: payment.status }, 'charge refunded');
  return { charge, providerStatus: payment.status };
}
