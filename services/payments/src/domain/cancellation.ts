import { AppError, type Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import {
  claimDeletions,
  findCharge,
  lockCharge,
  releaseDeletions,
  requestDeletion,
  updateCharge,
} from '../data/charges-repository.ts';
import { STATE_RANK, type Charge, type PaymentsDeps } from './charge.ts';
import { workThroughClaims } from './claimed-work.ts';
import { applyProviderView, providerStatusOf } from './provider-view.ts';

/**
 * An order that was cancelled or expired no longer wants its charge. Inside the event's transaction the wish is only
 * noted, since the provider is never called with a transaction open; the deletion job then deletes the payment.
 * A charge already paid is left alone: orders decides what to do with that money. True when a deletion was noted.
 */
export async function requestChargeDeletion(
  deps: PaymentsDeps,
  trx: Knex.Transaction,
  order: EventPayload<'order.cancelled'>,
  reason: 'order.cancelled' | 'order.expired',
): Promise<boolean> {
  const log = { orderId: order.orderId, reason };
  if (await requestDeletion(trx, order.orderId)) {
    deps.logger.info(log, 'charge deletion requested');
    return true;
  }
  const charge = await findCharge(trx, order.orderId);
  if (!charge) deps.logger.info(log, 'no charge for the order');
  else if (STATE_RANK[charge.status] >= STATE_RANK.paid) {
    deps.logger.warn({ ...log, paymentId: charge.paymentId, state: charge.status }, 'charge already paid: left alone');
  } else deps.logger.info({ ...log, paymentId: charge.paymentId, state: charge.status }, 'charge already closed');
  return false;
}

/**
 * One round of the deletion job: every charge whose deletion is due is deleted at the provider (once: the charge is
 * then closed as cancelled, which the provider's PAYMENT_DELETED does not re-announce). A deletion that fails is
 * tried again in the next round; one whose worker vanished, once its claim runs out.
 */
export function deletionRound(deps: PaymentsDeps) {
  return (signal: AbortSignal) =>
    workThroughClaims(signal, {
      claim: (batch) => claimDeletions(deps.db, deps.asaas.longestOperationMs, batch),
      work: (charge) => deleteAtProvider(deps, charge),
      failed: (charge, error) =>
        deps.logger.warn(
          { err: error, orderId: charge.orderId, paymentId: charge.paymentId },
          'charge deletion failed; it is tried again later',
        ),
      release: (orderIds) => releaseDeletions(deps.db, orderIds),
    });
}

async function deleteAtProvider(deps: PaymentsDeps, charge: Charge): Promise<void> {
  const log = { orderId: charge.orderId, paymentId: charge.paymentId };
  try {
    await deps.asaas.deletePayment(charge.paymentId);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 422) throw error;
    // Refused: most likely paid in the meantime. What the provider shows now decides.
    const payment = await deps.asaas.getPayment(charge.paymentId);
    if (!payment) throw error;
    await deps.db.transaction(async (trx) => {
      const locked = await lockCharge(trx, charge.orderId);
      if (locked) await applyProviderView(deps, trx, locked, { payment }, { source: 'deletion', at: new Date() });
    });
    deps.logger.warn({ ...log, providerStatus: providerStatusOf(payment) }, 'charge not deleted');
    return;
  }
  await deps.db.transaction(async (trx) => {
    const locked = await lockCharge(trx, charge.orderId);
    if (locked?.status === 'pending' || locked?.status === 'overdue') {
      await updateCharge(trx, charge.orderId, { status: 'cancelled', providerStatus: 'DELETED' });
    }
  });
  deps.logger.info(log, 'charge deleted');
}
