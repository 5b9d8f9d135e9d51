import type {
  CouponView,
  CourtesyLinkTicketType,
  CourtesyLinkView,
  MassSendJobView,
  PublicCourtesyLinkView,
} from '@ticketing/proto';
import type { Coupon } from '../data/coupons-repository.ts';
import type { MassSendJob } from '../data/jobs-repository.ts';
import type { CourtesyLink } from '../data/links-repository.ts';
import { redeemUrl } from '../domain/codes.ts';

const remaining = (link: CourtesyLink) => Math.max(0, link.ticketCount - link.usedCount);

const ticketTypeOf = ({ ticketType }: CourtesyLink): CourtesyLinkTicketType =>
  ticketType && { id: ticketType.id, name: ticketType.name };

export function toLinkView(siteUrl: string, link: CourtesyLink): CourtesyLinkView {
  return {
    id: link.id,
    code: link.code,
    event: { title: link.event.title },
    eventId: link.eventId,
    ticketType: ticketTypeOf(link),
    ticketCount: link.ticketCount,
    remainingTickets: link.isActive ? remaining(link) : 0,
    overridePrice: link.overridePrice,
    isActive: link.isActive,
    createdAt: link.createdAt.toISOString(),
    redeemUrl: redeemUrl(siteUrl, link),
  };
}

export function toPublicLinkView(link: CourtesyLink): PublicCourtesyLinkView {
  return {
    code: link.code,
    eventId: link.eventId,
    event: { title: link.event.title, date: link.event.date.toISOString(), location: link.event.location },
    ticketType: ticketTypeOf(link),
    remainingTickets: remaining(link),
    overridePrice: link.overridePrice,
  };
}

export function toJobView(job: MassSendJob, failures: MassSendJobView['failures'] = []): MassSendJobView {
  return {
    id: job.id,
    status: job.status,
    total: job.total,
    sent: job.sent,
    failed: job.failed,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    failures,
  };
}

export function toCouponView(coupon: Coupon): CouponView {
  return {
    id: coupon.id,
    code: coupon.code,
    eventId: coupon.eventId,
    eventTitle: coupon.eventTitle,
    percentOff: coupon.percentOff,
    amountOff: coupon.amountOff,
    maxUses: coupon.maxUses,
    usedCount: coupon.usedCount,
    startsAt: coupon.startsAt?.toISOString() ?? null,
    endsAt: coupon.endsAt?.toISOString() ?? null,
    ticketTypeIds: coupon.ticketTypeIds,
    isActive: coupon.isActive,
    createdAt: coupon.createdAt.toISOString(),
  };
}
