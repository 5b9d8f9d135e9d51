import { EVENT_TIME_ZONE } from './api/catalog.ts';

const clock = new Intl.DateTimeFormat('en-CA', {
  timeZone: EVENT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'longOffset',
});

/** What a clock and a calendar in São Paulo show at an instant, two digits each, and the offset from UTC then. */
export interface SaoPauloClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  /** '-03:00' (historic daylight saving time included; local mean time before 1914 has seconds too). */
  offset: string;
}

/** The São Paulo clock at `instant`: events, payment deadlines and pages all tell time by it. */
export function saoPauloClock(instant: Date): SaoPauloClock {
  const part = Object.fromEntries(clock.formatToParts(instant).map(({ type, value }) => [type, value]));
  return {
    year: part.year!,
    month: part.month!,
    day: part.day!,
    hour: part.hour!,
    minute: part.minute!,
    second: part.second!,
    offset: part.timeZoneName === 'GMT' ? '+00:00' : part.timeZoneName!.replace('GMT', ''),
  };
}

/** The offset of a clock in ms ('-03:00' → -10 800 000). */
export function offsetMs({ offset }: SaoPauloClock): number {
  const [, sign, hours, minutes, seconds = '0'] = /^([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(offset)!;
  return (sign === '-' ? -1 : 1) * ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000;
}
