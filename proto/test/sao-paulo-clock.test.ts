import { offsetMs, saoPauloClock } from '../src/index.ts';

test('the São Paulo clock tells the local date, time and offset, daylight saving time of past years included', () => {
  expect(saoPauloClock(new Date('2030-01-08T01:30:05Z'))).toEqual({
    year: '2030',
    month: '01',
    day: '07',
    hour: '22',
    minute: '30',
    second: '05',
    offset: '-03:00',
  });
  // Summer time until 2019.
  const summer = saoPauloClock(new Date('2018-12-01T15:00:00Z'));
  expect(summer).toMatchObject({ hour: '13', offset: '-02:00' });
  expect(offsetMs(summer)).toBe(-2 * 3_600_000);
  // Local mean time before 1914: an offset with seconds.
  expect(offsetMs(saoPauloClock(new Date('1900-01-01T12:00:00Z')))).toBe(-(3 * 3600 + 6 * 60 + 28) * 1000);
});
