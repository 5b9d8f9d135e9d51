import type { Knex, Logger, Outbox, Tracer } from '@ticketing/platform';
import { paymentsMessages, type ChargeRefundView } from '@ticketing/proto';
import type { Asaas, ChargeMethod } from '../asaas/adapter.ts';
import type { PaymentsMetrics } from '../metrics.ts';

/**
 * Where a charge stands for the platform. It only moves to a higher rank: a paid charge never becomes overdue or
 * failed again, whatever order the provider's notifications arrive in, and money that went back (refund or
 * chargeback) is announced once.
 */
export type ChargeState = 'pending' | 'overdue' | 'failed' | 'cancelled' | 'paid' | 'refunded' | 'charged_back';

export const STATE_RANK: Record<ChargeState, number> = {
  pending: 0,
  overdue: 1,
  failed: 2,
  cancelled: 2,
  paid: 3,
  refunded: 4,
  charged_back: 4,
};

/** Why a charge waits for a person: the provider's payment does not match what the platform asked for. */
export type ReviewReason = 'external_reference_mismatch' | 'value_mismatch';

export interface Charge {
  orderId: string;
  paymentId: string;
  customerId: string;
  method: ChargeMethod;
  /** Decimal string with two places, as stored in `numeric(12,2)`. */
  value: string;
  status: ChargeState;
  providerStatus: string;
  pixQrCode: string | null;
  pixPayload: string | null;
  boletoUrl: string | null;
  boletoLine: string | null;
  invoiceUrl: string | null;
  dueDate: string;
  paidAt: Date | null;
  refundRequestedAt: Date | null;
  refundedAt: Date | null;
  /** The order no longer wants the charge: it is deleted at the provider outside the transaction that asked. */
  deleteRequestedAt: Date | null;
  reviewReason: ReviewReason | null;
  /** Whom the charge is made out to (the buyer, or the company's finance department): the nota fiscal's e-mail. */
  customerName: string | null;
  customerEmail: string | null;
  orderNumber: string | null;
  /** The card installment plan (`ins_…`) the charge is paid in, when in more than one installment. */
  installmentId: string | null;
  installmentCount: number;
  /** A boleto's refund waits for the payer to give a bank account at this page. */
  refundBankDetailsUrl: string | null;
  /** The W3C trace context of the sale that created the charge, if it was traced. */
  traceparent: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The provider is still giving the money back (the charge counts as refunded already). */
const REFUND_UNDER_WAY = new Set(['REFUND_REQUESTED', 'REFUND_IN_PROGRESS']);

/**
 * A charge's money going back, as orders shows it: in progress at the provider, a boleto's waiting for the payer's
 * bank account, or done; null while nothing went back.
 */
export function refundViewOf(charge: Charge): ChargeRefundView | null {
  const bankDetailsUrl = charge.refundBankDetailsUrl;
  if (STATE_RANK[charge.status] > STATE_RANK.paid) {
    return { status: REFUND_UNDER_WAY.has(charge.providerStatus) ? 'in_progress' : 'refunded', bankDetailsUrl };
  }
  return charge.status === 'paid' && bankDetailsUrl ? { status: 'awaiting_bank_details', bankDetailsUrl } : null;
}

/** What every payments use case needs. */
export interface PaymentsDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  metrics: PaymentsMetrics;
  asaas: Asaas;
  tracer: Tracer;
  /** Wakes the nota fiscal job once a transaction that gave it work has committed. */
  invoiceWork: { wake(): void };
}

export const messages = {
  ...paymentsMessages,
  refundNotPaid: 'Somente cobranças pagas podem ser estornadas',
  refundInProgress: 'O estorno desta cobrança já está em andamento. Tente novamente em instantes.',
  chargeBeingCreated: 'A cobrança ainda está sendo criada. Tente novamente.',
} as const;
