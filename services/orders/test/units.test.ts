import { addBusinessDays, endOfLocalDay, localDay, paymentWindow } from '../src/index.ts';
import { believedMemory } from '../src/domain/believed.ts';

test('business days skip weekends', () => {
  expect(addBusinessDays('2030-01-07', 7)).toBe('2030-01-16'); // Monday → Wednesday of the next week
  expect(addBusinessDays('2030-01-11', 1)).toBe('2030-01-14'); // Friday → Monday
  expect(addBusinessDays('2030-01-12', 1)).toBe('2030-01-14'); // Saturday → Monday
  expect(addBusinessDays('2030-01-12', 7)).toBe('2030-01-22');
});

test('the end of a São Paulo day is 23:59:59 at UTC-3', () => {
  expect(endOfLocalDay('2030-01-16').toISOString()).toBe('2030-01-17T02:59:59.000Z');
  // 01:30 UTC on the 8th is still the 7th in São Paulo.
  expect(localDay(new Date('2030-01-08T01:30:00Z'))).toBe('2030-01-07');
});

const FAR = new Date('2030-03-01T12:00:00Z');

test('payment windows per method, for an event far away', () => {
  const now = new Date('2030-01-11T15:00:00Z'); // Friday, noon in São Paulo
  expect(paymentWindow('pix', now, FAR)).toEqual({
    expiresAt: new Date('2030-01-11T15:30:00Z'),
    dueDate: '2030-01-11',
  });
  expect(paymentWindow('credit_card', now, FAR)).toEqual({
    expiresAt: new Date('2030-01-12T15:00:00Z'),
    dueDate: '2030-01-12',
  });
  expect(paymentWindow('boleto', now, FAR)).toEqual({
    expiresAt: new Date('2030-01-23T02:59:59Z'),
    dueDate: '2030-01-22',
  });
  // Friday 22:00 in São Paulo is already Saturday in UTC: the count starts from the local Friday.
  expect(paymentWindow('boleto', new Date('2030-01-12T01:00:00Z'), FAR)).toMatchObject({ dueDate: '2030-01-22' });
});

test('no window runs past the event: PIX and card end at its start, a boleto is due early enough to clear before it', () => {
  const now = new Date('2030-01-11T15:00:00Z'); // Friday, noon in São Paulo
  const in20Minutes = new Date('2030-01-11T15:20:00Z');
  expect(paymentWindow('pix', now, in20Minutes)).toEqual({ expiresAt: in20Minutes, dueDate: '2030-01-11' });
  const tonight = new Date('2030-01-11T22:00:00Z');
  expect(paymentWindow('credit_card', now, tonight)).toEqual({ expiresAt: tonight, dueDate: '2030-01-11' });

  // An event on Thursday the 24th at 09:00: a boleto due on Monday the 21st clears by Thursday's end, too late;
  // due on Friday the 18th, it clears by Wednesday the 23rd.
  const thursday = new Date('2030-01-24T12:00:00Z');
  expect(paymentWindow('boleto', now, thursday)).toEqual({
    expiresAt: new Date('2030-01-19T02:59:59Z'),
    dueDate: '2030-01-18',
  });
  // Three hours away, or a day away: no boleto can clear in time.
  expect(paymentWindow('boleto', now, new Date('2030-01-11T18:00:00Z'))).toBe('boleto_too_late');
  expect(paymentWindow('boleto', now, new Date('2030-01-12T15:00:00Z'))).toBe('boleto_too_late');
  // A boleto due today clears by Wednesday's end (three business days): an event on Thursday takes it.
  expect(paymentWindow('boleto', now, new Date('2030-01-17T12:00:00Z'))).toEqual({
    expiresAt: new Date('2030-01-12T02:59:59Z'),
    dueDate: '2030-01-11',
  });
  // Four minutes before the start there is no time to pay at all.
  expect(paymentWindow('pix', now, new Date('2030-01-11T15:04:00Z'))).toBe('no_time');
  expect(paymentWindow('credit_card', now, new Date('2030-01-11T15:04:00Z'))).toBe('no_time');
});

test("the catalog's sold-out answer is believed for its moment, for its event only", () => {
  const remembered = believedMemory<true>(60_000);
  remembered.remember('evento-a', true);
  expect(remembered.has('evento-a')).toBe(true);
  expect(remembered.has('evento-b')).toBe(false);
  const forgotten = believedMemory<true>(0);
  forgotten.remember('evento-a', true);
  expect(forgotten.has('evento-a')).toBe(false);
});
