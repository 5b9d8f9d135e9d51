import { couponMessages, type CouponQuote } from '@ticketing/proto';
import type { OrdersDeps } from './order.ts';
import { takeUse } from './courtesy-uses.ts';
import type { Purchase } from './undo-creation.ts';

/**
 * Takes the purchase's use of the coupon typed, for the types it buys, before its spots are held (see `takeUse`):
 * courtesy answers what the coupon takes off, which the held lines' prices then decide.
 */
export async function takeCouponUse(
  deps: OrdersDeps,
  purchase: Purchase & { couponCode: string },
  asked: { ticketTypeId: string }[],
): Promise<CouponQuote> {
  const ticketTypeIds = [...new Set(asked.map((item) => item.ticketTypeId))];
  return takeUse(deps, purchase, {
    kind: 'coupon',
    invalid: couponMessages.invalid,
    take: () =>
      deps.courtesy.takeCouponUse(purchase.id, { code: purchase.couponCode, eventId: purchase.eventId, ticketTypeIds }),
  });
}
