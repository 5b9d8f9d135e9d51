const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** 6 am in São Paulo, which keeps UTC−3 all year (no daylight saving since 2019). */
const MORNING_UTC_HOUR = 6 + 3;

/**
 * Until when the door keeps what belongs to a day (an event's date, a reading's time): 6 am of the next day in São
 * Paulo, when a night's event is over too.
 */
export function keptUntil(at: string): number {
  const [year, month, day] = SAO_PAULO_DAY.format(new Date(at)).split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day + 1, MORNING_UTC_HOUR);
}
