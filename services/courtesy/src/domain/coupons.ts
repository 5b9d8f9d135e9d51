import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound, type AuthUser } from '@ticketing/platform';
import { couponMessages, type CreateCoupon, type EventView } from '@ticketing/proto';
import { insertCoupon, listCoupons as pageOfCoupons, setActive, type Coupon } from '../data/coupons-repository.ts';
import { askCatalog } from './catalog.ts';
import type { CourtesyDeps } from './deps.ts';
import { ticketTypesOf } from './links.ts';

export const COUPONS_PAGE_SIZE = 20;

/** POST /api/coupons: an administrator makes a coupon, for an event the catalog knows and types that event sells. */
export async function createCoupon(deps: CourtesyDeps, admin: AuthUser, input: CreateCoupon): Promise<Coupon> {
  const ticketTypeIds = [...new Set(input.ticketTypeIds)];
  const event = input.eventId === null ? null : await couponEvent(deps, input.eventId, ticketTypeIds);
  const coupon = await insertCoupon(deps.db, {
    id: randomUUID(),
    code: input.code,
    eventId: input.eventId,
    eventTitle: event?.title ?? null,
    percentOff: input.percentOff,
    amountOff: input.amountOff,
    maxUses: input.maxUses,
    startsAt: input.startsAt === null ? null : new Date(input.startsAt),
    endsAt: input.endsAt === null ? null : new Date(input.endsAt),
    ticketTypeIds,
    createdBy: admin.id,
  });
  if (!coupon) throw conflict(couponMessages.codeTaken);
  deps.logger.info({ couponId: coupon.id, code: coupon.code, eventId: coupon.eventId }, 'coupon created');
  return coupon;
}

/**
 * The event a coupon is made for, known to the catalog; the types it is limited to must be the event's (hidden ones
 * too, as links may name them).
 */
async function couponEvent(deps: CourtesyDeps, eventId: string, ticketTypeIds: string[]): Promise<EventView> {
  const [event, types] = await Promise.all([
    askCatalog(deps, eventId, (catalog) => catalog.getEvent(eventId)),
    ticketTypeIds.length > 0 ? ticketTypesOf(deps, eventId) : [],
  ]);
  if (!ticketTypeIds.every((id) => types.some((type) => type.id === id))) {
    throw badRequest(couponMessages.unknownTicketType);
  }
  return event;
}

export async function listCoupons(deps: CourtesyDeps, page: number) {
  const { coupons, total } = await pageOfCoupons(deps.db, page, COUPONS_PAGE_SIZE);
  return { coupons, totalPages: Math.max(1, Math.ceil(total / COUPONS_PAGE_SIZE)) };
}

/** PATCH /api/coupons/:id: turned off, no order can take a use any more; the uses already taken stand. */
export async function setCouponActive(deps: CourtesyDeps, id: string, isActive: boolean): Promise<Coupon> {
  const coupon = await setActive(deps.db, id, isActive);
  if (!coupon) throw notFound(couponMessages.notFound);
  deps.logger.info({ couponId: id, isActive }, 'coupon switched');
  return coupon;
}
