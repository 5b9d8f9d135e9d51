import type { EventHandler } from '@ticketing/platform';
import { courtesyLinkHoldId, orderHoldId, type EventPayload } from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { markOneSpotSold, markOrderHoldsSold } from '../data/holds-repository.ts';

/**
 * A paid order turns the spot it holds from reserved into sold. A free courtesy order holds no spot of its own: it
 * uses one of its link's. The inbox makes a redelivered event a no-op.
 */
export function countSoldSpot(deps: CatalogDeps): EventHandler<EventPayload<'order.paid'>> {
  return async ({ orderId, eventId, courtesyLinkId }, { trx }) => {
    const marked = await markOrderHoldsSold(trx, orderHoldId(orderId), eventId);
    if (marked === 0 && courtesyLinkId) await markOneSpotSold(trx, courtesyLinkHoldId(courtesyLinkId), eventId);
    if (marked === 0 && !courtesyLinkId) deps.logger.info({ orderId, eventId }, 'paid order held no spot');
  };
}
