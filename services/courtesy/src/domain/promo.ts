import { conflict, notFound, type Knex } from '@ticketing/platform';
import type { PromoQuote } from '@ticketing/proto';
import { findLink, findLinkByCode, giveUseBack, takeUse, type CourtesyLink } from '../data/links-repository.ts';
import { deletePromoUse, findPromoUse, insertPromoUse } from '../data/promo-uses-repository.ts';
import { messages, type CourtesyDeps } from './deps.ts';
import { isUsable } from './links.ts';

const quoteOf = (link: CourtesyLink): PromoQuote => ({
  linkId: link.id,
  overridePrice: link.overridePrice!,
  ticketType: link.ticketType && { id: link.ticketType.id, name: link.ticketType.name },
});

/** A promotional link of this event with uses left; 404 otherwise. */
export async function quotePromo(deps: CourtesyDeps, code: string, eventId: string): Promise<PromoQuote> {
  const link = await findLinkByCode(deps.db, code);
  if (!link || link.eventId !== eventId || link.overridePrice === null || !isUsable(link)) {
    throw notFound(messages.invalidCode);
  }
  return quoteOf(link);
}

/**
 * An order takes one use of a promotional link. Taking it again for the same order answers the same use, so an
 * order retried by orders never counts twice.
 */
export async function takePromoUse(
  deps: CourtesyDeps,
  request: { orderId: string; code: string; eventId: string },
): Promise<PromoQuote> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const earlier = await findPromoUse(deps.db, request.orderId);
    if (earlier) return quoteOf((await findLink(deps.db, earlier))!);
    try {
      return await deps.db.transaction(async (trx) => {
        const link = await takeUse(trx, { code: request.code, promotional: true, eventId: request.eventId });
        if (!link) throw await whyRefused(trx, request);
        await insertPromoUse(trx, request.orderId, link.id);
        deps.logger.info({ linkId: link.id, orderId: request.orderId }, 'promotional use taken');
        return quoteOf(link);
      });
    } catch (error) {
      // A twin request for the same order stored its use first: the next round answers it.
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }
  throw conflict(messages.exhausted);
}

async function whyRefused(db: Knex, request: { code: string; eventId: string }) {
  const link = await findLinkByCode(db, request.code);
  const sameLink = link && link.eventId === request.eventId && link.overridePrice !== null;
  if (sameLink && link.isActive && link.usedCount >= link.ticketCount) return conflict(messages.exhausted);
  return notFound(messages.invalidCode);
}

/**
 * A promotional order paid after its use was given back (a boleto paid after the order expired): the use is taken
 * again so the link counts it. When the link has none left the payment stands anyway, and the excess is logged.
 */
export async function promoOrderPaid(deps: CourtesyDeps, paid: { orderId: string; linkId: string | null }) {
  if (!paid.linkId || (await findPromoUse(deps.db, paid.orderId))) return;
  const link = await findLink(deps.db, paid.linkId);
  if (!link || link.overridePrice === null) return;
  const taken = await takeUse(deps.db, { code: link.code, promotional: true, eventId: link.eventId });
  if (!taken) {
    deps.logger.warn({ linkId: link.id, orderId: paid.orderId }, 'late promotional payment beyond the link uses');
    return;
  }
  await insertPromoUse(deps.db, paid.orderId, link.id);
  deps.logger.info({ linkId: link.id, orderId: paid.orderId }, 'promotional use taken again by a late payment');
}

/** The order no longer needs its use (cancelled, expired, or never made): the link gets it back, once. */
export async function givePromoUseBack(deps: CourtesyDeps, orderId: string): Promise<boolean> {
  return deps.db.transaction(async (trx) => {
    const linkId = await deletePromoUse(trx, orderId);
    if (!linkId) return false;
    await giveUseBack(trx, linkId);
    deps.logger.info({ linkId, orderId }, 'promotional use given back');
    return true;
  });
}
