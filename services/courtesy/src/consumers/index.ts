import type { EventHandler, EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { updateEventSnapshot } from '../data/links-repository.ts';
import type { CourtesyDeps } from '../domain/deps.ts';
import { forgetUser } from '../domain/erasure.ts';
import { givePromoUseBack, promoOrderPaid } from '../domain/promo.ts';

/**
 * What courtesy hears: orders that no longer need their promotional use (or need it again, paid late), events
 * whose details changed, and deleted accounts.
 */
export function courtesyConsumers(deps: CourtesyDeps): EventHandlers {
  const giveBack: EventHandler<EventPayload<'order.cancelled'>> = async ({ orderId }, { trx }) => {
    await givePromoUseBack({ ...deps, db: trx }, orderId);
  };
  return {
    'order.cancelled': giveBack,
    'order.expired': giveBack,
    'order.paid': async ({ orderId, courtesyLinkId }: EventPayload<'order.paid'>, { trx }) => {
      await promoOrderPaid({ ...deps, db: trx }, { orderId, linkId: courtesyLinkId });
    },
    'event.changed': async ({ eventId, title, date, location }: EventPayload<'event.changed'>, { trx }) => {
      await updateEventSnapshot(trx, eventId, { title, date: new Date(date), location });
    },
    'user.deleted': (payload: EventPayload<'user.deleted'>, { trx }) => forgetUser(deps, trx, payload),
  };
}
