import { randomUUID } from 'node:crypto';
import {
  AppError,
  badRequest,
  CollaboratorError,
  conflict,
  notFound,
  eventOnSale,
  type AuthUser,
  type Knex,
} from '@ticketing/platform';
import type { CreateCourtesyLink, EventTicketTypes, EventView } from '@ticketing/proto';
import {
  deactivate,
  findLink,
  findLinkByCode,
  insertLink,
  linksAwaitingRelease,
  listLinks as pageOfLinks,
  markHoldReleased,
  type CourtesyLink,
  type LinkTicketType,
  type NewLink,
} from '../data/links-repository.ts';
import { askCatalog } from './catalog.ts';
import { linkHoldId, newCode } from './codes.ts';
import { messages, type CourtesyDeps } from './deps.ts';

export const LINKS_PAGE_SIZE = 10;

/** The event a link is made for (known to the catalog and on sale), with every type it sells, hidden ones too. */
export interface LinkEvent {
  event: EventView;
  ticketTypes: EventTicketTypes['ticketTypes'];
}

export async function eventForLinks(deps: CourtesyDeps, eventId: string): Promise<LinkEvent> {
  const event = await eventOnSale(deps, eventId, messages.eventUnavailable);
  return { event, ticketTypes: await ticketTypesOf(deps, eventId) };
}

/** GET /api/courtesy/events/:id/ticket-types: the types a link of the event may name, hidden ones too. */
export function ticketTypesOf(deps: CourtesyDeps, eventId: string): Promise<LinkEvent['ticketTypes']> {
  return askCatalog(deps, eventId, (catalog) => catalog.ticketTypes(eventId));
}

/** The type a link names: the one asked for, or the event's first; 400 for a type the event does not sell. */
export function ticketTypeForLink({ ticketTypes }: LinkEvent, ticketTypeId?: string): LinkTicketType | null {
  const type = ticketTypeId === undefined ? ticketTypes[0] : ticketTypes.find((t) => t.id === ticketTypeId);
  if (ticketTypeId !== undefined && !type) throw badRequest(messages.unknownTicketType);
  return type ? { id: type.id, name: type.name, requiresDocument: type.requiresDocument } : null;
}

export type LinkRequest = Omit<NewLink, 'code' | 'holdId' | 'event'> & { event: EventView };

/**
 * Makes a link: a free one first holds its spots in the catalog (so its guests are sure to get in), then the link is
 * stored with a fresh code, with whatever `alsoStore` adds in the same transaction. The hold is named after the
 * link id, so making the same link again (a retry after a crash) holds nothing twice and answers the stored link.
 */
export async function issueLink(
  deps: CourtesyDeps,
  request: LinkRequest,
  alsoStore?: (trx: Knex.Transaction, link: CourtesyLink) => Promise<void>,
): Promise<CourtesyLink> {
  const holdId = request.overridePrice === null ? linkHoldId(request.id) : null;
  if (holdId) await holdSpots(deps, request.eventId, holdId, request.ticketCount);
  const { title, date, location } = request.event;
  const link: Omit<NewLink, 'code'> = { ...request, holdId, event: { title, date: new Date(date), location } };
  try {
    return await deps.db.transaction(async (trx) => {
      const stored = await storeWithFreshCode(deps, trx, link);
      if (stored.created) await alsoStore?.(trx, stored.link);
      return stored.link;
    });
  } catch (error) {
    if (holdId) await releaseQuietly(deps, request.eventId, holdId, 0);
    throw error;
  }
}

async function holdSpots(deps: CourtesyDeps, eventId: string, holdId: string, quantity: number): Promise<void> {
  try {
    await deps.catalog.hold(eventId, holdId, quantity);
  } catch (error) {
    if (error instanceof CollaboratorError && error.status === 409) {
      throw conflict(error.message === messages.soldOut ? messages.notEnoughSpots : messages.eventUnavailable);
    }
    if (error instanceof CollaboratorError && error.status === 404) throw notFound(messages.eventNotFound);
    deps.logger.warn({ err: error, eventId, holdId }, 'hold failed');
    // The catalog may have taken the spots before failing to answer.
    await releaseQuietly(deps, eventId, holdId, 0);
    throw new AppError(503, messages.serviceUnavailable);
  }
}

/** Stores the link under a code no other link has; a link already stored under this id is answered as it is. */
async function storeWithFreshCode(deps: CourtesyDeps, trx: Knex.Transaction, link: Omit<NewLink, 'code'>) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const stored = await insertLink(trx, { ...link, code: newCode(deps.codePrefix) });
    if (stored) return { link: stored, created: true };
    const existing = await findLink(trx, link.id);
    if (existing) return { link: existing, created: false };
  }
  throw new Error('no free courtesy code after 10 attempts');
}

async function releaseQuietly(deps: CourtesyDeps, eventId: string, holdId: string, keep: number): Promise<boolean> {
  try {
    await deps.catalog.release(eventId, holdId, keep);
    return true;
  } catch (error) {
    deps.logger.warn({ err: error, eventId, holdId }, 'hold release failed; it will be retried');
    return false;
  }
}

/** POST /api/courtesy-links: an admin makes one link for an event. */
export async function createLink(deps: CourtesyDeps, admin: AuthUser, input: CreateCourtesyLink) {
  const linkEvent = await eventForLinks(deps, input.eventId);
  const { event } = linkEvent;
  const link = await issueLink(deps, {
    id: randomUUID(),
    eventId: event.id,
    event,
    ticketType: ticketTypeForLink(linkEvent, input.ticketTypeId),
    recipientName: null,
    recipientEmail: null,
    ticketCount: input.ticketCount,
    overridePrice: input.overridePrice,
    createdBy: admin.id,
    jobId: null,
  });
  deps.logger.info(
    {
      linkId: link.id,
      eventId: link.eventId,
      ticketTypeId: link.ticketType?.id,
      ticketCount: link.ticketCount,
      promotional: link.overridePrice !== null,
    },
    'courtesy link created',
  );
  return link;
}

export async function listLinks(deps: CourtesyDeps, page: number) {
  const { links, total } = await pageOfLinks(deps.db, page, LINKS_PAGE_SIZE);
  return { links, totalPages: Math.max(1, Math.ceil(total / LINKS_PAGE_SIZE)) };
}

/** A link a guest may still use: active, with uses left, for an event still to come. */
export const isUsable = (link: CourtesyLink) =>
  link.isActive && link.usedCount < link.ticketCount && link.event.date.getTime() > Date.now();

/** GET /api/courtesy-links/:code: what the redemption and event pages show; anything unusable is the same 404. */
export async function usableLink(deps: CourtesyDeps, code: string): Promise<CourtesyLink> {
  const link = await findLinkByCode(deps.db, code);
  if (!link || !isUsable(link)) throw notFound(messages.invalidCode);
  return link;
}

/**
 * Deactivates a link: no use can be taken any more, and a free link's unused spots go back to the event (the used
 * ones stay taken by the guests' tickets). A release that fails now is retried by `releaseLeftoverHolds`.
 */
export async function deactivateLink(deps: CourtesyDeps, id: string): Promise<CourtesyLink> {
  const link = (await deactivate(deps.db, id)) ?? (await findLink(deps.db, id));
  if (!link) throw notFound(messages.linkNotFound);
  await releaseUnusedSpots(deps, link);
  deps.logger.info({ linkId: link.id, usedCount: link.usedCount }, 'courtesy link deactivated');
  return { ...link, isActive: false };
}

async function releaseUnusedSpots(deps: CourtesyDeps, link: CourtesyLink): Promise<void> {
  if (!link.holdId || link.holdReleasedAt) return;
  if (await releaseQuietly(deps, link.eventId, link.holdId, link.usedCount)) await markHoldReleased(deps.db, link.id);
}

/** Retries the releases of deactivated links that did not go through. */
export async function releaseLeftoverHolds(deps: CourtesyDeps): Promise<void> {
  for (const link of await linksAwaitingRelease(deps.db, 50)) await releaseUnusedSpots(deps, link);
}
