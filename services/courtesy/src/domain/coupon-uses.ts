import { AppError, conflict, notFound, type Knex } from '@ticketing/platform';
import { couponMessages, type CouponQuote } from '@ticketing/proto';
import { claimUse, findHeldUse, lockReleasedUse, releaseUse } from '../data/coupon-uses-repository.ts';
import { findCoupon, findCouponByCode, giveUseBack, takeUse, type Coupon } from '../data/coupons-repository.ts';
import type { CourtesyDeps } from './deps.ts';

const quoteOf = (coupon: Coupon): CouponQuote => ({
  couponId: coupon.id,
  code: coupon.code,
  percentOff: coupon.percentOff,
  amountOff: coupon.amountOff,
  ticketTypeIds: coupon.ticketTypeIds,
});

/**
 * Refuses a coupon that cannot be used now at this event (for these types, when they are named). Whether it has uses
 * left is the caller's to decide: the taking counts them in its conditional statement.
 */
function assertUsable(
  coupon: Coupon | undefined,
  use: { eventId: string; ticketTypeIds?: string[] },
  now = Date.now(),
): asserts coupon is Coupon {
  if (!coupon || !coupon.isActive || (coupon.eventId !== null && coupon.eventId !== use.eventId)) {
    throw notFound(couponMessages.invalid);
  }
  if (coupon.endsAt && coupon.endsAt.getTime() <= now) throw new AppError(422, couponMessages.expired);
  if (coupon.startsAt && coupon.startsAt.getTime() > now) throw new AppError(422, couponMessages.notYet);
  const covered = coupon.ticketTypeIds;
  if (use.ticketTypeIds && covered.length > 0 && !use.ticketTypeIds.some((id) => covered.includes(id))) {
    throw new AppError(422, couponMessages.otherTypes);
  }
}

const usedUp = (coupon: Coupon) => coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses;

/** GET /api/coupons/:code/quote: what the coupon takes off at this event, without taking a use. */
export async function quoteCoupon(deps: CourtesyDeps, code: string, eventId: string): Promise<CouponQuote> {
  const coupon = await findCouponByCode(deps.db, code);
  assertUsable(coupon, { eventId });
  if (usedUp(coupon)) throw conflict(couponMessages.usedUp);
  return quoteOf(coupon);
}

/**
 * An order takes one use of a coupon; nothing is taken when it is refused. Taking it again for the same order answers
 * the same use, so an order retried by orders never counts twice; a use the order gave back is taken again.
 */
export async function takeCouponUse(
  deps: CourtesyDeps,
  request: { orderId: string; code: string; eventId: string; ticketTypeIds: string[] },
): Promise<CouponQuote> {
  const held = await heldCoupon(deps.db, request.orderId);
  if (held) return quoteOf(held);
  const coupon = await findCouponByCode(deps.db, request.code);
  assertUsable(coupon, request);
  return deps.db.transaction(async (trx) => {
    const claimed = await claimUse(trx, request.orderId, coupon.id);
    // A twin request for the same order took its use first: that use is the answer.
    if (!claimed) return quoteOf((await heldCoupon(trx, request.orderId))!);
    const taken = await takeUse(trx, coupon.id);
    if (!taken) throw conflict(couponMessages.usedUp);
    deps.logger.info({ couponId: coupon.id, orderId: request.orderId }, 'coupon use taken');
    return quoteOf(taken);
  });
}

async function heldCoupon(db: Knex, orderId: string): Promise<Coupon | undefined> {
  const couponId = await findHeldUse(db, orderId);
  return couponId === undefined ? undefined : findCoupon(db, couponId);
}

/** The order no longer needs its use (cancelled, expired, or never made): the coupon gets it back, once. */
export async function giveCouponUseBack(deps: CourtesyDeps, orderId: string): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const couponId = await releaseUse(trx, orderId);
    if (!couponId) return false;
    await giveUseBack(trx, couponId);
    deps.logger.info({ couponId, orderId }, 'coupon use given back');
    return true;
  });
}

/**
 * An order paid after its use was given back (a boleto paid after the order expired) takes it again, so the coupon
 * counts it. When the coupon has none left the payment stands anyway, and the excess is logged.
 */
export async function couponOrderPaid(deps: CourtesyDeps, orderId: string): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const couponId = await lockReleasedUse(trx, orderId);
    if (!couponId) return;
    if (!(await takeUse(trx, couponId))) {
      deps.logger.warn({ couponId, orderId }, 'late coupon payment beyond the coupon uses');
      return;
    }
    await claimUse(trx, orderId, couponId);
    deps.logger.info({ couponId, orderId }, 'coupon use taken again by a late payment');
  });
}
