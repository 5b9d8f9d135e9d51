import { setTimeout as delay } from 'node:timers/promises';
import { AppError, conflict, notFound } from '@ticketing/platform';
import type { ChargeRequest } from '@ticketing/proto';
import type { ProviderCharge } from '../asaas/adapter.ts';
import type { AsaasPayment } from '../asaas/types.ts';
import {
  abandonCreation,
  claimCreation,
  claimRefund,
  completeCreation,
  findCharge,
  lockCharge,
  releaseRefund,
} from '../data/charges-repository.ts';
import { messages, STATE_RANK, type Charge, type PaymentsDeps } from './charge.ts';
import { applyProviderView, PAID_STATUSES, providerStatusOf } from './provider-view.ts';

/**
 * The order's charge at the provider, created once: a repeated call answers the stored charge. The charge is
 * reserved and committed first (a first call finds nothing to read before), the provider is called with no
 * transaction open, and its answer is recorded in one statement. A concurrent call for the same order waits for that
 * answer; a reservation whose holder vanished is taken over once its time runs out, and the provider look-up by the
 * order id then reuses the payment it made.
 */
export async function createCharge(deps: PaymentsDeps, orderId: string, request: ChargeRequest): Promise<Charge> {
  const reservation = { orderId, method: request.method, value: request.amount, dueDate: request.dueDate };
  for (let round = 0; ; round++) {
    const creation = await claimCreation(deps.db, reservation, deps.asaas.longestOperationMs);
    if (creation.kind === 'created') return creation.charge;
    if (creation.kind === 'claimed') {
      const charge = await createAtProvider(deps, orderId, request, creation);
      if (charge) return charge;
    } else {
      await delay(Math.min(20 * 2 ** round, 500));
    }
  }
}

/** Undefined when the reservation was taken over meanwhile (its time ran out): the caller looks again. */
async function createAtProvider(
  deps: PaymentsDeps,
  orderId: string,
  request: ChargeRequest,
  { creationId, firstAttempt }: { creationId: string; firstAttempt: boolean },
): Promise<Charge | undefined> {
  let provider: ProviderCharge;
  try {
    provider = await deps.asaas.createCharge({ orderId, ...request, firstAttempt });
  } catch (error) {
    await abandonCreation(deps.db, orderId, creationId);
    throw error;
  }
  const charge = await completeCreation(deps.db, orderId, creationId, {
    paymentId: provider.payment.id,
    customerId: provider.customerId,
    providerStatus: provider.payment.status,
    pixQrCode: provider.pixQrCode,
    pixPayload: provider.pixPayload,
    boletoUrl: provider.boletoUrl,
    boletoLine: provider.boletoLine,
    invoiceUrl: provider.invoiceUrl,
  });
  if (!charge) {
    deps.logger.warn({ orderId, paymentId: provider.payment.id }, 'charge creation taken over by another request');
    return undefined;
  }
  deps.logger.info(
    { orderId, paymentId: charge.paymentId, method: charge.method, value: charge.value },
    'charge created',
  );
  return charge;
}

export interface ChargeStatus {
  charge: Charge;
  providerStatus: string;
}

/** Asks the provider once for the payment and applies what it shows exactly as a webhook would. */
export async function checkCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeStatus> {
  const stored = await findCharge(deps.db, orderId);
  if (!stored) throw notFound(messages.chargeNotFound);
  const payment = await deps.asaas.getPayment(stored.paymentId);
  if (!payment) {
    deps.logger.warn({ orderId, paymentId: stored.paymentId }, 'provider does not know the payment');
    return { charge: stored, providerStatus: stored.providerStatus };
  }
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    return (await applyProviderView(deps, trx, locked, payment, { source: 'check', at: new Date() })).charge;
  });
  deps.logger.info(
    { orderId, paymentId: payment.id, providerStatus: payment.status, state: charge.status },
    'charge checked',
  );
  return { charge, providerStatus: providerStatusOf(payment) };
}

/**
 * Gives a paid charge's money back through the provider, with no transaction open while it is asked. One request at
 * a time holds the refund (others are answered 503 and try again); the provider's answer is applied like any view of
 * the payment, so `payment.refunded` is published once whether the answer or the provider's PAYMENT_REFUNDED
 * notification comes first. Repeating it answers the refunded charge without asking the provider.
 */
export async function refundCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeStatus> {
  const stored = await findCharge(deps.db, orderId);
  if (!stored) throw notFound(messages.chargeNotFound);
  const settled = (charge: Charge) => ({ charge, providerStatus: charge.providerStatus });
  if (STATE_RANK[stored.status] > STATE_RANK.paid) return settled(stored);
  if (stored.status !== 'paid') throw conflict(messages.refundNotPaid);
  const claimed = await claimRefund(deps.db, orderId, deps.asaas.longestOperationMs);
  if (!claimed) {
    const now = (await findCharge(deps.db, orderId))!;
    if (STATE_RANK[now.status] > STATE_RANK.paid) return settled(now);
    throw new AppError(503, messages.refundInProgress);
  }

  let payment: AsaasPayment;
  try {
    payment = await deps.asaas.refundPayment(claimed.paymentId);
    // The provider answered without refunding: nothing changed, the caller may try again.
    if (PAID_STATUSES.has(payment.status)) throw new AppError(503, messages.providerUnavailable);
  } catch (error) {
    await releaseRefund(deps.db, orderId);
    throw error;
  }
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    return (await applyProviderView(deps, trx, locked, payment, { source: 'refund', at: new Date() })).charge;
  });
  deps.logger.info({ orderId, paymentId: claimed.paymentId, providerStatus: payment.status }, 'charge refunded');
  return { charge, providerStatus: providerStatusOf(payment) };
}
