import { AppError, type EventHandler } from '@ticketing/platform';
import { orderHoldId, type EventPayload } from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { releaseHold, releaseOrderSpots } from '../domain/inventory.ts';

/**
 * An order that ends unpaid (cancelled or expired) gives its spot back. An order whose hold never existed
 * (refused as sold out) has nothing to give back.
 */
export function releaseOrderHold(deps: CatalogDeps): EventHandler<EventPayload<'order.cancelled'>> {
  return async ({ orderId, eventId }, { trx }) => {
    try {
      await releaseHold({ ...deps, db: trx }, { eventId, holdId: orderHoldId(orderId) });
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return;
      throw error;
    }
  };
}

/**
 * A paid order whose money went back (refund, chargeback) gives back the spot it holds, wherever it was taken (a
 * late payment takes it under a hold of its own). A late payment refunded for lack of a spot holds none: nothing
 * to do.
 */
export function releaseRefundedOrder(deps: CatalogDeps): EventHandler<EventPayload<'order.refunded'>> {
  return async ({ orderId, eventId, reason }, { trx }) => {
    if (reason === 'late_payment') return;
    const spots = await releaseOrderSpots({ ...deps, db: trx }, { eventId, holdId: orderHoldId(orderId) });
    if (spots === 0) deps.logger.info({ orderId, eventId, reason }, 'refunded order held no spot');
  };
}
