import { AppError, type EventHandler } from '@ticketing/platform';
import { orderHoldId, type EventPayload } from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { releaseHold } from '../domain/inventory.ts';

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
