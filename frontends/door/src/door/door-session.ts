import {
  defaultSession,
  sessionLabel,
  sessionsOrWhole,
  type DoorEventView,
  type DoorTicket,
  type EventSession,
} from '@ticketing/proto';

/** An event's sessions as the door lists them; an event kept on the device before events had sessions has one. */
export const eventSessions = (event: DoorEventView): EventSession[] => sessionsOrWhole(event, event.sessions);

/** The session a door checks in: the one chosen while it is the event's, else the one whose door is open now. */
export function doorSessionOf(
  chosen: string | null,
  sessions: readonly EventSession[] | undefined,
  now = new Date(),
): string | undefined {
  if (!sessions) return undefined;
  return sessions.some((session) => session.id === chosen) ? chosen! : defaultSession(sessions, now)?.id;
}

/**
 * A session chosen on an earlier start of the door (kept on the device) while it still stands: one of the event's
 * that has not ended. Yesterday's choice is not today's door: without one, the door takes the one open now.
 */
export const keptChoice = (
  chosen: string | null,
  sessions: readonly EventSession[] | undefined,
  now = new Date(),
): string | null =>
  sessions?.some((session) => session.id === chosen && Date.parse(session.endsAt) > now.getTime()) ? chosen : null;

/** The session a reading of `eventId` at `readAt` was for, by the events kept on the device: its door was open then. */
export function sessionAt(events: readonly DoorEventView[], eventId: string, readAt: string): string | null {
  const event = events.find((found) => found.id === eventId);
  return (event && defaultSession(eventSessions(event), new Date(readAt))?.id) ?? null;
}

/** How the door names each session of an event: 'Dia 2 — 07/12'. */
export const sessionLabels = (sessions: readonly EventSession[]): Map<string, string> =>
  new Map(sessions.map((session, position) => [session.id, sessionLabel(session, position)]));

/** An admission of this device the server may not know of yet: a queued reading that let the holder in. */
export interface QueuedAdmission {
  sessionId: string | null;
  readAt: string;
  admitted: boolean;
}

/**
 * When a kept ticket was admitted to `sessionId`, as far as this device knows: the server's list, else a reading
 * queued here that let it in to that session (a newer list, sent before the server knew of it, may say unused).
 */
export const usedInSession = (
  ticket: Pick<DoorTicket, 'admissions'>,
  sessionId: string,
  queued: readonly QueuedAdmission[],
): string | null =>
  ticket.admissions[sessionId] ??
  queued.find((reading) => reading.admitted && reading.sessionId === sessionId)?.readAt ??
  null;
