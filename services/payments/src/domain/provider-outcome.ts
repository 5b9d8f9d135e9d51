import type { Knex } from '@ticketing/platform';
import { fromCents } from '@ticketing/proto';
import type { AsaasPayment } from '../asaas/types.ts';
import { updateCharge } from '../data/charges-repository.ts';
import { STATE_RANK, type Charge, type PaymentsDeps } from './charge.ts';

/** Provider statuses that mean the money is in (card: CONFIRMED first; PIX and boleto: RECEIVED). */
export const PAID_STATUSES = new Set(['CONFIRMED', 'RECEIVED', 'RECEIVED_IN_CASH']);

/** What a provider notification or a fresh read of the payment means for the charge. */
export interface ProviderOutcome {
  state: 'paid' | 'overdue' | 'failed' | 'refunded';
  /** The provider's word for it, as published: RECEIVED, DELETED, REFUNDED, REPROVED_BY_RISK_ANALYSIS… */
  providerStatus: string;
}

const FAILURE_EVENTS: Record<string, string> = {
  PAYMENT_DELETED: 'DELETED',
  PAYMENT_REPROVED_BY_RISK_ANALYSIS: 'REPROVED_BY_RISK_ANALYSIS',
  PAYMENT_CREDIT_CARD_CAPTURE_REFUSED: 'CREDIT_CARD_CAPTURE_REFUSED',
};

/** The outcome of a webhook event; undefined for the events the platform does not act on. */
export function outcomeOfEvent(event: string, payment: Partial<AsaasPayment>): ProviderOutcome | undefined {
  const status = payment.status ?? '';
  switch (event) {
    case 'PAYMENT_CONFIRMED':
    case 'PAYMENT_RECEIVED':
      return PAID_STATUSES.has(status) ? { state: 'paid', providerStatus: status } : undefined;
    case 'PAYMENT_OVERDUE':
      return { state: 'overdue', providerStatus: 'OVERDUE' };
    case 'PAYMENT_REFUNDED':
      return { state: 'refunded', providerStatus: 'REFUNDED' };
    default:
      return FAILURE_EVENTS[event] ? { state: 'failed', providerStatus: FAILURE_EVENTS[event] } : undefined;
  }
}

/** The outcome of the payment as the provider shows it now (the "check status" path). */
export function outcomeOfPayment(payment: AsaasPayment): ProviderOutcome | undefined {
  if (PAID_STATUSES.has(payment.status)) return { state: 'paid', providerStatus: payment.status };
  if (payment.deleted) return { state: 'failed', providerStatus: 'DELETED' };
  if (payment.status === 'OVERDUE') return { state: 'overdue', providerStatus: 'OVERDUE' };
  if (payment.status === 'REFUNDED') return { state: 'refunded', providerStatus: 'REFUNDED' };
  return undefined;
}

export interface OutcomeFacts {
  paymentId: string;
  /** The amount the provider reports, in reais; the charge's own value when absent. */
  value?: number;
  paidAt: Date;
  source: 'webhook' | 'check' | 'cancellation';
  eventId?: string;
}

export type ApplyResult = 'applied' | 'stale';

/**
 * The one transition both webhooks and "check status" go through, inside the caller's transaction with the
 * charge locked: the charge moves only forward and each move writes its outbox row in the same transaction.
 * A refund is recorded without an announcement; a refund of a charge never seen paid is a failure.
 */
export async function applyOutcome(
  deps: Pick<PaymentsDeps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  charge: Charge,
  outcome: ProviderOutcome,
  facts: OutcomeFacts,
): Promise<{ result: ApplyResult; charge: Charge }> {
  const wasPaid = charge.status === 'paid' || charge.status === 'refunded';
  const target = outcome.state === 'refunded' && !wasPaid ? 'failed' : outcome.state;
  const log = { orderId: charge.orderId, paymentId: facts.paymentId, source: facts.source, eventId: facts.eventId };
  if (STATE_RANK[target] <= STATE_RANK[charge.status]) {
    deps.logger.info(
      { ...log, state: charge.status, ignored: outcome.providerStatus },
      'stale provider update ignored',
    );
    return { result: 'stale', charge };
  }
  const updated = await updateCharge(trx, charge.orderId, {
    status: target,
    providerStatus: outcome.providerStatus,
    ...(target === 'paid' ? { paidAt: facts.paidAt } : {}),
    ...(target === 'refunded' ? { refundedAt: facts.paidAt } : {}),
  });
  const orderId = charge.orderId;
  switch (target) {
    case 'paid': {
      const value = facts.value === undefined ? charge.value : fromCents(Math.round(facts.value * 100));
      await deps.outbox.add(trx, 'payment.confirmed', orderId, {
        orderId,
        paymentId: facts.paymentId,
        providerStatus: outcome.providerStatus,
        value,
        paidAt: facts.paidAt.toISOString(),
      });
      deps.logger.info({ ...log, providerStatus: outcome.providerStatus, value }, 'payment confirmed');
      break;
    }
    case 'overdue':
      await deps.outbox.add(trx, 'payment.overdue', orderId, { orderId, paymentId: facts.paymentId });
      deps.logger.info(log, 'payment overdue');
      break;
    case 'failed':
      await deps.outbox.add(trx, 'payment.failed', orderId, {
        orderId,
        paymentId: facts.paymentId,
        providerStatus: outcome.providerStatus,
      });
      deps.logger.info({ ...log, providerStatus: outcome.providerStatus }, 'payment failed');
      break;
    case 'refunded':
      if (charge.refundRequestedAt) deps.logger.info(log, 'refund recorded');
      else deps.logger.warn(log, 'refund made at the provider without a request from the platform');
      break;
  }
  return { result: 'applied', charge: updated };
}
