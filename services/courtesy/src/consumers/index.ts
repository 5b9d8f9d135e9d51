import type { EventHandler, EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { updateCouponEventTitle } from '../data/coupons-repository.ts';
import { updateEventSnapshot } from '../data/links-repository.ts';
import { couponOrderPaid, giveCouponUseBack } from '../domain/coupon-uses.ts';
import type { CourtesyDeps } from '../domain/deps.ts';
import { forgetUser } from '../domain/erasure.ts';
import { givePromoUseBack, promoOrderPaid } from '../domain/promo.ts';
import { notePaidOrder } from '../domain/redemptions-report.ts';

/**
 * What courtesy hears: orders that no longer need their promotional or coupon use (or need it again, paid late),
 * paid orders (the redemption report shows them), events whose details changed, and deleted accounts.
 */
export function courtesyConsumers(deps: CourtesyDeps): EventHandlers {
  const giveBack: EventHandler<EventPayload<'order.cancelled'>> = async ({ orderId }, { trx }) => {
    await givePromoUseBack({ ...deps, db: trx }, orderId);
    await giveCouponUseBack({ ...deps, db: trx }, orderId);
  };
  return {
    'order.cancelled': giveBack,
    'order.expired': giveBack,
    'order.paid': async (paid: EventPayload<'order.paid'>, { trx }) => {
      await promoOrderPaid({ ...deps, db: trx }, { orderId: paid.orderId, linkId: paid.courtesyLinkId });
      await couponOrderPaid({ ...deps, db: trx }, paid.orderId);
      await notePaidOrder(trx, paid);
    },
    'event.changed': async ({ eventId, title, date, location }: EventPayload<'event.changed'>, { trx }) => {
      await updateEventSnapshot(trx, eventId, { title, date: new Date(date), location });
      await updateCouponEventTitle(trx, eventId, title);
    },
    'user.deleted': (payload: EventPayload<'user.deleted'>, { trx }) => forgetUser(deps, trx, payload),
  };
}
