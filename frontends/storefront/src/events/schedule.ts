import type { EventSession } from '@ticketing/proto';
import { formatDate, formatter, formatTime } from '@ticketing/shared';

const list = formatter(() => new Intl.ListFormat('pt-BR', { type: 'conjunction' }));

/**
 * The days an event happens on, in São Paulo: "15 de março de 2026"; "6 e 7 de dezembro de 2026" in one month;
 * "30 de novembro e 1 de dezembro de 2026" across months.
 */
export function eventDays(sessions: readonly EventSession[]): string {
  const dates = [...new Set(sessions.map((session) => formatDate(session.startsAt)))];
  const days = dates.map((date) => /^(\d+) (.*)$/.exec(date)!);
  const [first] = days;
  if (first && days.every(([, , month]) => month === first[2])) {
    return `${list().format(days.map(([, day]) => day!))} ${first[2]}`;
  }
  return list().format(dates);
}

/** "08:00–18:00" */
export const sessionTimes = (session: EventSession) => `${formatTime(session.startsAt)}–${formatTime(session.endsAt)}`;

/**
 * When an event's days begin and end: its start for an event of one session (as the site always said), the hours
 * of its sessions when they all share them, else a pointer to its schedule.
 */
export function eventHours(sessions: readonly EventSession[]): string {
  const [first, ...others] = sessions;
  if (!first) return '';
  if (others.length === 0) return formatTime(first.startsAt);
  const times = new Set(sessions.map(sessionTimes));
  return times.size === 1 ? sessionTimes(first) : 'Horários na programação';
}

/** An event's days and hours on one line: "6 e 7 de dezembro de 2026 · 08:00–18:00". */
export const eventSpan = (sessions: readonly EventSession[]) => `${eventDays(sessions)} · ${eventHours(sessions)}`;

/** The days without the year, where the date badge beside them already places them: "6 e 7 de dezembro". */
export const shortEventDays = (sessions: readonly EventSession[]) => eventDays(sessions).replace(/ de \d{4}$/, '');

/** How the schedule names a session: its title, or its place in the event. */
export const sessionName = (session: EventSession, position: number) => session.title ?? `Sessão ${position + 1}`;
