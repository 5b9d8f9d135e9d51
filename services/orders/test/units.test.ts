import { addBusinessDays, endOfLocalDay, localDay, paymentWindow } from '../src/index.ts';

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

test('payment windows per method', () => {
  const now = new Date('2030-01-11T15:00:00Z'); // Friday, noon in São Paulo
  expect(paymentWindow('pix', now)).toEqual({ expiresAt: new Date('2030-01-11T15:30:00Z'), dueDate: '2030-01-11' });
  expect(paymentWindow('credit_card', now)).toEqual({
    expiresAt: new Date('2030-01-12T15:00:00Z'),
    dueDate: '2030-01-12',
  });
  expect(paymentWindow('boleto', now)).toEqual({ expiresAt: new Date('2030-01-23T02:59:59Z'), dueDate: '2030-01-22' });
  // Friday 22:00 in São Paulo is already Saturday in UTC: the count starts from the local Friday.
  expect(paymentWindow('boleto', new Date('2030-01-12T01:00:00Z')).dueDate).toBe('2030-01-22');
});
