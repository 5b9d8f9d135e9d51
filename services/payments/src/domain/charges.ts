import { setTimeout as delay } from 'node:timers/promises';
import { AppError, backoffDelayMs, conflict, notFound } from '@ticketing/platform';
import { installmentMessages, type ChargeRefundView, type ChargeRequest } from '@ticketing/proto';
import { ProviderRefusal, type ProviderCharge } from '../asaas/adapter.ts';
import {
  abandonCreation,
  awaitBankDetails,
  claimCreation,
  claimRefund,
  completeCreation,
  findCharge,
  findCharges,
  lockCharge,
  releaseRefund,
} from '../data/charges-repository.ts';
import { findInvoices, type Invoice } from '../data/invoices-repository.ts';
import { messages, refundViewOf, type Charge, type PaymentsDeps } from './charge.ts';
import { applyProviderView, PAID_STATUSES, providerStatusOf, readProviderView } from './provider-view.ts';

/**
 * The order's charge at the provider, created once: a repeated call answers the stored charge. The charge is
 * reserved and committed first (a first call finds nothing to read before), the provider is called with no
 * transaction open, and its answer is recorded in one statement. A concurrent call for the same order waits for that
 * answer; a reservation whose holder vanished is taken over once its time runs out, and the provider look-up by the
 * order id then reuses the payment it made.
 */
export async function createCharge(deps: PaymentsDeps, orderId: string, request: ChargeRequest): Promise<Charge> {
  const installmentCount = request.installments ?? 1;
  if (installmentCount > 1 && request.method !== 'credit_card') throw new AppError(422, installmentMessages.cardOnly);
  const reservation = {
    orderId,
    method: request.method,
    value: request.amount,
    dueDate: request.dueDate,
    customerName: request.customer.name,
    customerEmail: request.customer.email,
    orderNumber: request.orderNumber ?? null,
    installmentCount,
  };
  for (let round = 0; ; round++) {
    const creation = await claimCreation(deps.db, reservation, deps.asaas.longestOperationMs);
    if (creation.kind === 'created') return creation.charge;
    if (creation.kind === 'claimed') {
      const charge = await createAtProvider(deps, orderId, request, creation);
      if (charge) return charge;
    } else {
      await delay(backoffDelayMs(round + 1, 20, 500));
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
    installmentId: provider.payment.installment ?? null,
  });
  if (!charge) {
    deps.logger.warn({ orderId, paymentId: provider.payment.id }, 'charge creation taken over by another request');
    return undefined;
  }
  deps.logger.info(
    {
      orderId,
      paymentId: charge.paymentId,
      method: charge.method,
      value: charge.value,
      installments: charge.installmentCount,
    },
    'charge created',
  );
  return charge;
}

/** The charges of the orders named that exist at the provider, each with its nota fiscal when it has one. */
export async function chargesOf(
  deps: PaymentsDeps,
  orderIds: string[],
): Promise<{ charge: Charge; invoice: Invoice | undefined }[]> {
  const [charges, invoices] = await Promise.all([findCharges(deps.db, orderIds), findInvoices(deps.db, orderIds)]);
  const byOrder = new Map(invoices.map((invoice) => [invoice.orderId, invoice]));
  return charges.map((charge) => ({ charge, invoice: byOrder.get(charge.orderId) }));
}

export interface ChargeStatus {
  charge: Charge;
  providerStatus: string;
}

/** Asks the provider once for the payment and applies what it shows exactly as a webhook would. */
export async function checkCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeStatus> {
  const stored = await findCharge(deps.db, orderId);
  if (!stored) throw notFound(messages.chargeNotFound);
  const view = await readProviderView(deps.asaas, stored.paymentId);
  if (!view) {
    deps.logger.warn({ orderId, paymentId: stored.paymentId }, 'provider does not know the payment');
    return { charge: stored, providerStatus: stored.providerStatus };
  }
  const { payment } = view;
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    return (await applyProviderView(deps, trx, locked, view, { source: 'check', at: new Date() })).charge;
  });
  deps.logger.info(
    { orderId, paymentId: payment.id, providerStatus: payment.status, state: charge.status },
    'charge checked',
  );
  return { charge, providerStatus: providerStatusOf(payment) };
}

export interface ChargeRefund extends ChargeStatus {
  refund: ChargeRefundView;
}

/** The refund as it stands once asked for: a charge refunded, or a boleto's waiting for the payer's bank account. */
const refundAnswer = (charge: Charge, providerStatus = charge.providerStatus): ChargeRefund => ({
  charge,
  providerStatus,
  refund: refundViewOf(charge)!,
});

/**
 * Gives a paid charge's money back through the provider, with no transaction open while it is asked: PIX and card
 * (an installment plan as a whole) at once, a boleto once the payer gives a bank account at the provider's page
 * (the charge stays paid until the provider shows it refunded). One request at a time holds the refund (others are
 * answered 503 and try again); the provider's answer is applied like any view of the payment, so `payment.refunded`
 * is published once whether the answer or the provider's notification comes first. Repeating it answers the refund
 * as it stands without asking the provider. A refusal by the provider is a 422 with its words.
 */
export async function refundCharge(deps: PaymentsDeps, orderId: string): Promise<ChargeRefund> {
  const stored = await findCharge(deps.db, orderId);
  if (!stored) throw notFound(messages.chargeNotFound);
  if (refundViewOf(stored)) return refundAnswer(stored);
  if (stored.status !== 'paid') throw conflict(messages.refundNotPaid);
  const claimed = await claimRefund(deps.db, orderId, deps.asaas.longestOperationMs);
  if (!claimed) {
    const now = (await findCharge(deps.db, orderId))!;
    if (refundViewOf(now)) return refundAnswer(now);
    throw new AppError(503, messages.refundInProgress);
  }
  try {
    return claimed.method === 'boleto' ? await refundBoleto(deps, claimed) : await refundAtOnce(deps, claimed);
  } catch (error) {
    await releaseRefund(deps.db, orderId);
    if (error instanceof ProviderRefusal) {
      deps.metrics.refundsRefused.inc({ method: claimed.method });
      deps.logger.error(
        { orderId, paymentId: claimed.paymentId, method: claimed.method, reason: error.reason },
        'refund refused by the provider',
      );
    }
    throw error;
  }
}

async function refundAtOnce(deps: PaymentsDeps, claimed: Charge): Promise<ChargeRefund> {
  const { orderId, paymentId, installmentId } = claimed;
  const payment = await deps.asaas.refundPayment({ paymentId, installmentId });
  // The provider answered without refunding: nothing changed, the caller may try again.
  if (PAID_STATUSES.has(payment.status)) throw new AppError(503, messages.providerUnavailable);
  const charge = await deps.db.transaction(async (trx) => {
    const locked = (await lockCharge(trx, orderId))!;
    return (await applyProviderView(deps, trx, locked, { payment }, { source: 'refund', at: new Date() })).charge;
  });
  deps.logger.info({ orderId, paymentId, providerStatus: payment.status }, 'charge refunded');
  return refundAnswer(charge, providerStatusOf(payment));
}

/** The provider answers the page where the payer gives the bank account; the charge keeps it and stays paid. */
async function refundBoleto(deps: PaymentsDeps, claimed: Charge): Promise<ChargeRefund> {
  const { requestUrl } = await deps.asaas.refundBankSlip(claimed.paymentId);
  const charge = await awaitBankDetails(deps.db, claimed.orderId, requestUrl);
  deps.logger.info({ orderId: claimed.orderId, paymentId: claimed.paymentId }, 'boleto refund awaits bank details');
  return refundAnswer(charge);
}
