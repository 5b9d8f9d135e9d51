import { badRequest, conflict } from '@ticketing/platform';
import { scheduleProblem, sessionMessages, WHOLE_EVENT_MS } from '@ticketing/proto';
import type { SessionPlan } from '../data/events-repository.ts';
import { messages, parseEventDate, type CatalogEvent } from './catalog-event.ts';

/** A session as an edit sends it: instants as text (São Paulo's local time from the back office). */
export interface SessionInput {
  id?: string | undefined;
  startsAt: string;
  endsAt: string;
  title: string | null;
}

/** The schedule an event is given: its date (the first start) and its sessions by start. */
export interface Schedule {
  date: Date;
  sessions: SessionPlan[];
}

/**
 * A new event's schedule: the sessions sent, or one session of the old calendar's length from `date`. With sessions, a
 * date is optional and must be the first start.
 */
export function newSchedule(input: { date?: string | undefined; sessions?: SessionInput[] | undefined }): Schedule {
  if (!input.sessions) return wholeEvent(parseEventDate(input.date!));
  if (input.sessions.some((session) => session.id !== undefined)) throw badRequest(sessionMessages.unknown);
  return scheduleOf(input.sessions, input.date);
}

/**
 * The schedule an edit leaves, or undefined when it leaves the one there. Sessions sent replace the schedule (those
 * with an id must be the event's); a date alone moves a one-session event's session, keeping its length, and is
 * refused on an event of several sessions, whose days only the sessions can say.
 */
export function editedSchedule(
  current: CatalogEvent,
  input: { date?: string | undefined; sessions?: SessionInput[] | undefined },
): Schedule | undefined {
  if (input.sessions) {
    const ids = input.sessions.flatMap((session) => session.id ?? []);
    const known = new Set(current.sessions.map((session) => session.id));
    if (new Set(ids).size !== ids.length || ids.some((id) => !known.has(id))) throw badRequest(sessionMessages.unknown);
    return scheduleOf(input.sessions, input.date);
  }
  if (input.date === undefined) return undefined;
  const date = parseEventDate(input.date);
  if (date.getTime() === current.date.getTime()) return undefined;
  const [only, ...others] = current.sessions;
  if (!only || others.length > 0) throw conflict(messages.dateOfSessions);
  const length = only.endsAt.getTime() - only.startsAt.getTime();
  return { date, sessions: [{ ...only, startsAt: date, endsAt: new Date(date.getTime() + length) }] };
}

/** The sessions as instants, by start, when they make a schedule; the date, if given, must be the first start. */
function scheduleOf(input: SessionInput[], date: string | undefined): Schedule {
  const sessions = input
    .map((session) => ({
      id: session.id,
      startsAt: parseEventDate(session.startsAt),
      endsAt: parseEventDate(session.endsAt),
      title: session.title,
    }))
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  const problem = scheduleProblem(sessions);
  if (problem) throw badRequest(problem);
  const first = sessions[0]!.startsAt;
  if (date !== undefined && parseEventDate(date).getTime() !== first.getTime()) {
    throw badRequest(sessionMessages.dateNotFirst);
  }
  return { date: first, sessions };
}

function wholeEvent(date: Date): Schedule {
  return { date, sessions: [{ startsAt: date, endsAt: new Date(date.getTime() + WHOLE_EVENT_MS), title: null }] };
}
