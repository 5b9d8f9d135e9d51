import type { Knex } from '@ticketing/platform';
import { fromCents, toCents } from '@ticketing/proto';
import type { Asaas } from '../asaas/adapter.ts';
import type { AsaasInstallment, AsaasPayment } from '../asaas/types.ts';
import { updateCharge } from '../data/charges-repository.ts';
import { STATE_RANK, type Charge, type ChargeState, type PaymentsDeps, type ReviewReason } from './charge.ts';
import { requestInvoice, requestInvoiceCancellation } from './invoices.ts';

/** Provider statuses that mean the money is in (card: CONFIRMED first; PIX and boleto: RECEIVED). */
export const PAID_STATUSES = new Set(['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH']);
/** The money is going or has gone back to the buyer at our request or the bank's. */
const REFUND_STATUSES = new Set(['REFUNDED', 'REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);
/** The card holder disputes the payment: the money is held or taken back until the dispute ends. */
const CHARGEBACK_STATUSES = new Set(['CHARGEBACK_REQUESTED', 'CHARGEBACK_DISPUTE', 'AWAITING_CHARGEBACK_REVERSAL']);

/**
 * What the provider shows of a payment; for a paid installment, also its plan, whose net value is the order's (the
 * sales figures count the whole amount).
 */
export interface ProviderView {
  payment: AsaasPayment;
  installment?: AsaasInstallment | null;
}

/** Reads the payment (and a paid installment's plan) from the provider; null when it does not know the payment. */
export async function readProviderView(asaas: Asaas, paymentId: string): Promise<ProviderView | null> {
  const payment = await asaas.getPayment(paymentId);
  if (!payment) return null;
  const paidInstallment = payment.installment && PAID_STATUSES.has(payment.status);
  return { payment, installment: paidInstallment ? await asaas.getInstallment(payment.installment!) : null };
}

/** The provider's word for the payment, as published: its status, or DELETED for a deleted one. */
export const providerStatusOf = (payment: AsaasPayment) => (payment.deleted ? 'DELETED' : payment.status);

/** Where the provider's payment puts the charge; undefined while it says nothing new (PENDING, in analysis…). */
function targetOf(charge: Charge, payment: AsaasPayment): ChargeState | undefined {
  const wasPaid = STATE_RANK[charge.status] >= STATE_RANK.paid;
  if (payment.deleted) {
    if (wasPaid) return 'refunded';
    return charge.deleteRequestedAt ? 'cancelled' : 'failed';
  }
  if (PAID_STATUSES.has(payment.status)) return 'paid';
  if (CHARGEBACK_STATUSES.has(payment.status)) return wasPaid ? 'charged_back' : 'failed';
  if (REFUND_STATUSES.has(payment.status)) return wasPaid ? 'refunded' : 'failed';
  if (payment.status === 'OVERDUE') return 'overdue';
  return undefined;
}

interface Mismatch {
  reason: ReviewReason;
  expected: string;
  received: string | null;
}

/**
 * The payment must be the one made for this order, for the amount asked (compared in cents). An installment is one
 * of the charge's plan, and its value the total's even share give or take the rounding: each share is rounded to the
 * cent and the last takes what the others left over, so none is `count` cents or more away from total ÷ count.
 */
function mismatchOf(charge: Charge, payment: AsaasPayment): Mismatch | undefined {
  if (payment.externalReference !== charge.orderId) {
    return {
      reason: 'external_reference_mismatch',
      expected: charge.orderId,
      received: payment.externalReference ?? null,
    };
  }
  const cents = typeof payment.value === 'number' ? Math.round(payment.value * 100) : null;
  const expected = toCents(charge.value);
  const received = cents === null ? null : fromCents(cents * charge.installmentCount);
  const count = charge.installmentCount;
  const matches = charge.installmentId
    ? payment.installment === charge.installmentId &&
      cents !== null &&
      Math.abs(cents * count - expected) < count * count
    : cents === expected;
  return matches ? undefined : { reason: 'value_mismatch', expected: charge.value, received };
}

/** What the provider pays out after its fee, as a decimal string, when it says (the back office's fee figures). */
function netValueOf({ payment, installment }: ProviderView): { netValue?: string } {
  // An installment's own net is not the order's: without its plan's, none is said.
  const net = payment.installment ? installment?.netValue : payment.netValue;
  return typeof net === 'number' && net >= 0 ? { netValue: fromCents(Math.round(net * 100)) } : {};
}

export interface ViewFacts {
  source: 'webhook' | 'check' | 'refund' | 'deletion';
  /** When it happened: the notification's time for webhooks, now otherwise. */
  at: Date;
  eventId?: string;
}

/** applied: the charge moved; stale: it is already further along; unchanged: nothing new; review: held for a person. */
export type ViewResult = 'applied' | 'stale' | 'unchanged' | 'review';

/**
 * The one place where what the provider shows about a payment becomes the charge's state, for webhooks, "check
 * status", refunds and deletions alike. It runs inside the caller's transaction with the charge locked (the
 * provider was asked before it began). A payment for another order or amount is held for review and moves
 * nothing; otherwise the charge moves only forward and each move writes its outbox row in the same transaction.
 */
export async function applyProviderView(
  deps: Pick<PaymentsDeps, 'outbox' | 'logger' | 'metrics' | 'invoiceWork'>,
  trx: Knex.Transaction,
  charge: Charge,
  view: ProviderView,
  facts: ViewFacts,
): Promise<{ result: ViewResult; charge: Charge }> {
  const { payment } = view;
  const { orderId, paymentId } = charge;
  const log = { orderId, paymentId, source: facts.source, eventId: facts.eventId };
  const mismatch = mismatchOf(charge, payment);
  if (mismatch) {
    const flagged = await updateCharge(trx, orderId, { reviewReason: mismatch.reason });
    deps.metrics.mismatches.inc({ reason: mismatch.reason });
    deps.logger.error(
      { ...log, reason: mismatch.reason, expected: mismatch.expected, received: mismatch.received },
      'provider payment does not match the charge: held for review',
    );
    return { result: 'review', charge: flagged };
  }
  const providerStatus = providerStatusOf(payment);
  const target = targetOf(charge, payment);
  if (!target) {
    deps.logger.info({ ...log, state: charge.status, providerStatus }, 'provider shows nothing new');
    return { result: 'unchanged', charge };
  }
  if (STATE_RANK[target] <= STATE_RANK[charge.status]) {
    deps.logger.info({ ...log, state: charge.status, ignored: providerStatus }, 'stale provider update ignored');
    return { result: 'stale', charge };
  }
  const updated = await updateCharge(trx, orderId, {
    status: target,
    providerStatus,
    ...(target === 'paid' ? { paidAt: facts.at } : {}),
    ...(target === 'refunded' || target === 'charged_back' ? { refundedAt: facts.at } : {}),
  });
  switch (target) {
    case 'paid':
      await deps.outbox.add(trx, 'payment.confirmed', orderId, {
        orderId,
        paymentId,
        providerStatus,
        value: charge.value,
        ...netValueOf(view),
        paidAt: facts.at.toISOString(),
      });
      await requestInvoice(deps, trx, updated);
      deps.logger.info({ ...log, providerStatus, value: charge.value }, 'payment confirmed');
      break;
    case 'overdue':
      await deps.outbox.add(trx, 'payment.overdue', orderId, { orderId, paymentId });
      deps.logger.info(log, 'payment overdue');
      break;
    case 'failed':
      await deps.outbox.add(trx, 'payment.failed', orderId, { orderId, paymentId, providerStatus });
      deps.logger.info({ ...log, providerStatus }, 'payment failed');
      break;
    case 'cancelled':
      // The platform asked for this deletion itself: nothing to announce.
      deps.logger.info(log, 'charge deletion seen at the provider');
      break;
    case 'refunded':
    case 'charged_back': {
      const reason = target === 'refunded' ? 'refund' : 'chargeback';
      await deps.outbox.add(trx, 'payment.refunded', orderId, { orderId, paymentId, providerStatus, reason });
      await requestInvoiceCancellation(deps, trx, orderId);
      if (reason === 'refund' && !charge.refundRequestedAt) {
        deps.logger.warn({ ...log, providerStatus }, 'refund made at the provider without a request from the platform');
      }
      deps.logger.info({ ...log, providerStatus, reason }, 'payment refunded');
      break;
    }
  }
  return { result: 'applied', charge: updated };
}
