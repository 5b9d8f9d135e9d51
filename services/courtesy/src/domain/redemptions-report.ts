import { notFound, type Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { findLink, type CourtesyLink } from '../data/links-repository.ts';
import { linkRedemptions, recordPromoOrderNumber, recordRedemptionOrder } from '../data/report-repository.ts';
import { messages, type CourtesyDeps } from './deps.ts';

export const REDEMPTIONS_PAGE_SIZE = 20;

const isPromotional = (link: CourtesyLink) => link.overridePrice !== null;

/** `id` is a UUID (the route checks it). */
async function reportedLink(deps: CourtesyDeps, id: string): Promise<CourtesyLink> {
  const link = await findLink(deps.db, id);
  if (!link) throw notFound(messages.linkNotFound);
  return link;
}

/** GET /api/courtesy-links/:id/redemptions: a page of who redeemed the link (or which orders used it), newest first. */
export async function redemptionsPage(deps: CourtesyDeps, id: string, page: number) {
  const link = await reportedLink(deps, id);
  const { rows, total } = await linkRedemptions(
    deps.db,
    { id: link.id, promotional: isPromotional(link) },
    { number: page, size: REDEMPTIONS_PAGE_SIZE },
  );
  return { link, rows, totalPages: Math.max(1, Math.ceil(total / REDEMPTIONS_PAGE_SIZE)) };
}

/** GET /api/courtesy-links/:id/redemptions.csv: every redemption, for the provider's staff (full CPF). */
export async function redemptionsExport(deps: CourtesyDeps, id: string) {
  const link = await reportedLink(deps, id);
  const { rows } = await linkRedemptions(deps.db, { id: link.id, promotional: isPromotional(link) });
  deps.logger.info({ linkId: link.id, rows: rows.length }, 'courtesy redemptions exported');
  return { link, rows };
}

/** An order made from a link was paid: the report shows it beside the redemption or use it came from. */
export async function notePaidOrder(db: Knex, paid: EventPayload<'order.paid'>): Promise<void> {
  if (!paid.courtesyLinkId) return;
  const link = await findLink(db, paid.courtesyLinkId);
  if (!link) return;
  if (isPromotional(link)) {
    await recordPromoOrderNumber(db, paid.orderId, paid.orderNumber);
    return;
  }
  // One redemption per guest and link, so the link and the guest name it.
  const { orderId, orderNumber, userId } = paid;
  await recordRedemptionOrder(db, { linkId: link.id, userId, orderId, orderNumber });
}
