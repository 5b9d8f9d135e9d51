import ical, { ICalCalendarMethod, type ICalDayJsStub } from 'ical-generator';
import { brand, EVENT_TIME_ZONE, sessionsOrWhole, type EventSession } from '@ticketing/proto';

/** Brazil has had no daylight saving time since 2019: São Paulo is UTC−03:00 all year. */
const UTC_OFFSET_MS = -3 * 60 * 60 * 1000;
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${EVENT_TIME_ZONE}`,
  `X-LIC-LOCATION:${EVENT_TIME_ZONE}`,
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0300',
  'TZOFFSETTO:-0300',
  'TZNAME:-03',
  'DTSTART:19700101T000000',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8; method=PUBLISH';

/** What the calendar entries of an event need of it: one entry per session. */
export interface CalendarEvent {
  id: string;
  title: string;
  /** When it starts: a Date or an ISO 8601 instant. */
  date: Date | string;
  location: string;
  /** Its sessions; when unknown, one from `date` of the length every event had before sessions. */
  sessions?: readonly EventSession[] | undefined;
}

/** The event's page on the site. */
export const eventPageUrl = (publicUrl: string, eventId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/event/${encodeURIComponent(eventId)}`;

/** `workshop-de-farmacia-clinica.ics`: the title without accents or punctuation, safe in any header. */
export function calendarFileName(title: string): string {
  const slug = title
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 80)
    .replace(/^-+|-+$/g, '');
  return `${slug || 'evento'}.ics`;
}

/**
 * The instant as São Paulo's wall-clock time, in the Day.js shape that ical-generator writes out as it is. A native
 * Date with a time zone would be read in the server's own zone instead.
 */
function saoPauloTime(instant: Date): ICalDayJsStub {
  const wall = new Date(instant.getTime() + UTC_OFFSET_MS).toISOString();
  const fields: Record<string, string> = {
    YYYY: wall.slice(0, 4),
    MM: wall.slice(5, 7),
    DD: wall.slice(8, 10),
    HH: wall.slice(11, 13),
    mm: wall.slice(14, 16),
    ss: wall.slice(17, 19),
  };
  return {
    format: (pattern = 'YYYY-MM-DDTHH:mm:ss') => pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => fields[token]!),
    isValid: () => true,
    toDate: () => instant,
    toJSON: () => instant.toJSON(),
  };
}

/**
 * One event as an iCalendar file (METHOD:PUBLISH) to add to a personal calendar: an entry per session, with its own
 * start and end. Every file of an event gives an entry the same UID (the event's own when it has one session, else
 * the session's), so calendar programs can tell it is the same entry.
 */
export function eventCalendar(event: CalendarEvent, publicUrl: string): string {
  const url = eventPageUrl(publicUrl, event.id);
  const host = new URL(publicUrl).hostname;
  const calendar = ical({
    prodId: { company: brand.name, product: 'Ingressos', language: 'PT' },
    method: ICalCalendarMethod.PUBLISH,
    // No calendar-wide zone: only the VTIMEZONE block for the event's own.
    timezone: { name: null, generator: (zone) => (zone === EVENT_TIME_ZONE ? VTIMEZONE : null) },
  });
  const sessions = sessionsOrWhole(event, event.sessions);
  const several = sessions.length > 1;
  for (const [position, session] of sessions.entries()) {
    const name = session.title ?? (several ? `Sessão ${position + 1}` : null);
    calendar.createEvent({
      id: `${several ? session.id : event.id}@${host}`,
      summary: name ? `${event.title} — ${name}` : event.title,
      start: saoPauloTime(new Date(session.startsAt)),
      end: saoPauloTime(new Date(session.endsAt)),
      timezone: EVENT_TIME_ZONE,
      location: event.location,
      description: `Um evento ${brand.name}.\nInformações e ingressos na página do evento: ${url}`,
      url,
    });
  }
  // RFC 5545 ends every line with CRLF, the last one too.
  return `${calendar.toString()}\r\n`;
}
