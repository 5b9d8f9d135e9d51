import { formatBRL, formatDate, formatDateTime, formatDayMonth, formatShortDate, formatTime } from '../src/format.ts';

// Intl separates the currency sign with a no-break space.
const nbsp = (text: string) => text.replaceAll(' ', '\u00a0');

test('amounts are Brazilian reais, from the API’s decimal strings or from numbers', () => {
  expect(formatBRL('150.00')).toBe(nbsp('R$ 150,00'));
  expect(formatBRL('1234.5')).toBe(nbsp('R$ 1.234,50'));
  expect(formatBRL(5)).toBe(nbsp('R$ 5,00'));
  expect(formatBRL('0.00')).toBe(nbsp('R$ 0,00'));
});

test('dates and times are those of São Paulo, whatever the device’s time zone', () => {
  // 01:30 UTC on the 16th is still the evening of the 15th in São Paulo (UTC−3).
  const iso = '2026-03-16T01:30:00.000Z';
  expect(formatDate(iso)).toBe('15 de março de 2026');
  expect(formatShortDate(iso)).toBe('15/03/2026');
  expect(formatDayMonth(iso)).toBe('15/03');
  expect(formatTime(iso)).toBe('22:30');
  expect(formatDateTime(iso)).toBe('15/03/2026, 22:30');
});
