import { badRequest } from '@ticketing/platform';
import { defaultSession, doorMessages, sessionsOrWhole, type EventSession } from '@ticketing/proto';
import { findEventSnapshot } from '../data/event-snapshots-repository.ts';
import type { TicketsDeps } from './deps.ts';

/** An event's sessions as this service last heard of them (one, the event's own, for an event it never heard of). */
export async function sessionsOfEvent(deps: Pick<TicketsDeps, 'db'>, eventId: string): Promise<EventSession[]> {
  const snapshot = await findEventSnapshot(deps.db, eventId);
  return sessionsOrWhole({ id: eventId, date: snapshot?.date ?? new Date() }, snapshot?.sessions);
}

/**
 * The session a door request is for, with all of the event's: the one it names (400 when the event has no such
 * session), else the one whose door is open now.
 */
export async function doorSessionOf(
  deps: Pick<TicketsDeps, 'db'>,
  eventId: string,
  requested: string | undefined,
): Promise<{ session: EventSession; sessions: EventSession[] }> {
  const sessions = await sessionsOfEvent(deps, eventId);
  const session = requested ? sessions.find(({ id }) => id === requested.toLowerCase()) : defaultSession(sessions);
  if (!session) throw badRequest(doorMessages.sessionNotInEvent);
  return { session, sessions };
}
