import { DEFAULT_MINIMUM_ATTENDANCE, sessionLabel, sessionsOrWhole, type EventSession } from '@ticketing/proto';
import type { EventRow, SettingsRow } from '../data/events-repository.ts';

const HOUR_MS = 60 * 60 * 1000;

/** A session as certificates count it: its hours as set by the administrator, or its length. */
export interface CountedSession extends EventSession {
  label: string;
  hours: number;
}

/** An event's sessions with the hours each counts. */
export function countedSessions(event: EventRow, settings: SettingsRow | undefined): CountedSession[] {
  const set = settings?.hours_by_session ?? {};
  return sessionsOrWhole(event, event.sessions).map((session, position) => ({
    ...session,
    label: sessionLabel(session, position),
    hours:
      set[session.id] ??
      Math.round(((Date.parse(session.endsAt) - Date.parse(session.startsAt)) / HOUR_MS) * 100) / 100,
  }));
}

/** When the event's last session ends: certificates are issued from then on. */
export const lastEnd = (sessions: readonly EventSession[]): Date =>
  new Date(Math.max(...sessions.map((session) => Date.parse(session.endsAt))));

export const minimumAttendance = (settings: SettingsRow | undefined): number =>
  settings?.minimum_attendance === null || settings?.minimum_attendance === undefined
    ? DEFAULT_MINIMUM_ATTENDANCE
    : Number(settings.minimum_attendance);

/**
 * The sessions a holder was admitted to and their hours, when they reach the minimum share of the event's hours;
 * undefined when they do not (nobody qualifies with no hours at all).
 */
export function attendance(
  sessions: readonly CountedSession[],
  admittedTo: ReadonlySet<string>,
  minimum: number,
): { sessions: CountedSession[]; hours: number } | undefined {
  const attended = sessions.filter((session) => admittedTo.has(session.id));
  const hours = Math.round(attended.reduce((sum, session) => sum + session.hours, 0) * 100) / 100;
  const total = sessions.reduce((sum, session) => sum + session.hours, 0);
  if (hours <= 0 || hours + 1e-9 < minimum * total) return undefined;
  return { sessions: attended, hours };
}
