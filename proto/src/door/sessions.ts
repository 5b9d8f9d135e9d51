import { saoPauloClock } from '../sao-paulo-clock.ts';

/**
 * A session of an event: a day, or a block of a day, each with its own door. A ticket is admitted once per session.
 * An event has one or more, ordered by start and never overlapping; its `date` is the first one's start.
 */
export interface EventSession {
  id: string;
  startsAt: string;
  endsAt: string;
  /** 'Dia 1', 'Módulo prático'; null when the organiser named none. */
  title: string | null;
}

/** The door of a session opens this long before it starts, and closes when it ends. */
export const DOOR_OPENS_BEFORE_MS = 3 * 60 * 60 * 1000;

/** Whether a session's door is open at `now`: from 3 h before its start until its end. */
export function doorIsOpen(session: Pick<EventSession, 'startsAt' | 'endsAt'>, now: Date = new Date()): boolean {
  const time = now.getTime();
  return time >= Date.parse(session.startsAt) - DOOR_OPENS_BEFORE_MS && time < Date.parse(session.endsAt);
}

/**
 * The session a door checks in when staff did not choose one: the first whose door is open now; else the next to
 * open; else the last one (a door opened late still admits). Undefined only for an event without sessions.
 */
export function defaultSession<Session extends Pick<EventSession, 'startsAt' | 'endsAt'>>(
  sessions: readonly Session[],
  now: Date = new Date(),
): Session | undefined {
  const ordered = [...sessions].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return (
    ordered.find((session) => doorIsOpen(session, now)) ??
    ordered.find((session) => Date.parse(session.startsAt) > now.getTime()) ??
    ordered.at(-1)
  );
}

/**
 * How the door and the lists name a session: its title and its day ('Dia 2 — 07/12'), or its place in the event
 * ('Sessão 2 — 07/12') when it has no title.
 */
export function sessionLabel(session: Pick<EventSession, 'startsAt' | 'title'>, position: number): string {
  const clock = saoPauloClock(new Date(session.startsAt));
  return `${session.title ?? `Sessão ${position + 1}`} — ${clock.day}/${clock.month}`;
}

/**
 * The sessions of an event as a service last heard of it. An event announced before events had sessions has one,
 * which carries the event's own id: catalog gave each existing event that session, so admissions recorded then and
 * later agree.
 */
export function sessionsOrWhole(
  event: { id: string; date: string | Date },
  sessions: readonly EventSession[] | null | undefined,
): EventSession[] {
  if (sessions && sessions.length > 0) return [...sessions];
  const startsAt = new Date(event.date);
  return [
    {
      id: event.id,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + WHOLE_EVENT_MS).toISOString(),
      title: null,
    },
  ];
}

/** The length catalog gave the one session of an event that existed before sessions (the old calendar's 4 h). */
export const WHOLE_EVENT_MS = 4 * 60 * 60 * 1000;
