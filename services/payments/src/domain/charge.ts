import type { Knex, Logger, Outbox } from '@ticketing/platform';
import { paymentsMessages } from '@ticketing/proto';
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
  createdAt: Date;
  updatedAt: Date;
}

/** What every payments use case needs. */
export interface PaymentsDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  metrics: PaymentsMetrics;
  asaas: Asaas;
}

export const messages = {
  ...paymentsMessages,
  refundNotPaid: 'Somente cobranças pagas podem ser estornadas',
  refundInProgress: 'O estorno desta cobrança já está em andamento. Tente novamente em instantes.',
  chargeBeingCreated: 'A cobrança ainda está sendo criada. Tente novamente.',
} as const;
