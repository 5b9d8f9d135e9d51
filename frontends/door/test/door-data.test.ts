import { keptUntil } from '../src/door/kept-until.ts';

test('an event’s data is kept until 6 am of the next day in São Paulo, late-night events included', () => {
  const nextMorning = Date.parse('2026-11-27T06:00:00-03:00');
  for (const date of ['2026-11-26T00:00:00-03:00', '2026-11-26T13:00:00.000Z', '2026-11-26T23:30:00-03:00'])
    expect({ date, until: keptUntil(date) }).toEqual({ date, until: nextMorning });
  // 01:00 UTC on the 27th is still the 26th in São Paulo.
  expect(keptUntil('2026-11-27T01:00:00.000Z')).toBe(nextMorning);
  // Month and year ends roll over.
  expect(keptUntil('2026-12-31T20:00:00-03:00')).toBe(Date.parse('2027-01-01T06:00:00-03:00'));
});
