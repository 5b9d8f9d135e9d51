import { calendarFileName, eventCalendar, notFound } from '@ticketing/platform';
import { findEvent, listUpcoming } from '../data/events-repository.ts';
import { messages, sessionOf, type CatalogDeps, type CatalogEvent } from './catalog-event.ts';

/** The public listing: upcoming, published, active and listed events, soonest first, optionally narrowed by a search. */
export function listEvents(deps: Pick<CatalogDeps, 'db'>, search: { q?: string | undefined }): Promise<CatalogEvent[]> {
  return listUpcoming(deps.db, search.q);
}

/**
 * One published, active event by id, listed or not, past or not: a direct link keeps working; a draft is unknown,
 * and a cancelled event is gone, saying so.
 */
export async function getEvent(deps: Pick<CatalogDeps, 'db'>, id: string): Promise<CatalogEvent> {
  const event = await findEvent(deps.db, id);
  if (!event || !event.isActive || !event.publishedAt) throw notFound(messages.eventNotFound);
  if (event.cancelledAt) throw notFound(messages.cancelled);
  return event;
}

/** An event as an iCalendar file to add to a personal agenda: any event a direct link shows. */
export async function getEventCalendar(
  deps: Pick<CatalogDeps, 'db'>,
  id: string,
  publicUrl: string,
): Promise<{ filename: string; content: string }> {
  const event = await getEvent(deps, id);
  const sessions = event.sessions.map(sessionOf);
  return { filename: calendarFileName(event.title), content: eventCalendar({ ...event, sessions }, publicUrl) };
}
