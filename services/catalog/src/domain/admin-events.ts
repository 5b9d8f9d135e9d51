import { notFound } from '@ticketing/platform';
import type { AdminCreateEvent, AdminEventSearch, AdminUpdateEvent } from '@ticketing/proto';
import { findAdminEvent, searchAdminEvents, type AdminEvent } from '../data/admin-events-repository.ts';
import { findEvent } from '../data/events-repository.ts';
import { messages, type CatalogDeps } from './catalog-event.ts';
import { createEvent, updateEvent } from './manage-events.ts';
import { isoSettings } from './ticket-types.ts';

export const ADMIN_PAGE_SIZE = 20;

/** Every event for the back office, drafts and past ones included, one page at a time. */
export async function listAdminEvents(
  deps: Pick<CatalogDeps, 'db'>,
  search: AdminEventSearch,
): Promise<{ events: AdminEvent[]; page: number; totalPages: number; total: number }> {
  const { events, total } = await searchAdminEvents(deps.db, {
    query: search.q,
    status: search.status,
    page: search.page,
    pageSize: ADMIN_PAGE_SIZE,
  });
  return { events, page: search.page, totalPages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)), total };
}

/** Any event by id, whatever its status. */
export async function getAdminEvent(deps: Pick<CatalogDeps, 'db'>, id: string): Promise<AdminEvent> {
  const event = await findAdminEvent(deps.db, id);
  if (!event) throw notFound(messages.eventNotFound);
  return event;
}

/** A new event from the back office: a draft unless published, dated in the future. */
export async function createAdminEvent(deps: CatalogDeps, input: AdminCreateEvent): Promise<AdminEvent> {
  const event = await createEvent(deps, input, { futureOnly: true });
  return getAdminEvent(deps, event.id);
}

export async function editAdminEvent(deps: CatalogDeps, id: string, input: AdminUpdateEvent): Promise<AdminEvent> {
  await updateEvent(deps, id, input);
  return getAdminEvent(deps, id);
}

const COPY_PREFIX = 'Cópia de ';
const TITLE_MAX = 255;

/**
 * A new draft with an event's fields, image, sessions (new ones, at the same times) and ticket types and lots (new
 * ones, alike), and none of its sales.
 */
export async function duplicateEvent(deps: CatalogDeps, id: string): Promise<AdminEvent> {
  const original = await findEvent(deps.db, id);
  if (!original) throw notFound(messages.eventNotFound);
  const copy = await createEvent(deps, {
    title: `${COPY_PREFIX}${original.title}`.slice(0, TITLE_MAX),
    description: original.description,
    sessions: original.sessions.map((session) => ({
      startsAt: session.startsAt.toISOString(),
      endsAt: session.endsAt.toISOString(),
      title: session.title,
    })),
    location: original.location,
    price: original.price,
    imageUrl: original.imageUrl,
    maxAttendees: original.maxAttendees,
    listed: original.listed,
    maxInstallments: original.installments.max,
    minInstallmentValue: original.installments.minValue,
    published: false,
    ticketTypes: original.ticketTypes.map((type) => ({
      ...isoSettings(type),
      lots: type.lots.map((lot) => ({
        name: lot.name,
        price: lot.price,
        endsAt: lot.endsAt?.toISOString() ?? null,
        quantity: lot.quantity,
      })),
    })),
  });
  deps.logger.info({ eventId: copy.id, from: original.id }, 'event duplicated');
  return getAdminEvent(deps, copy.id);
}
