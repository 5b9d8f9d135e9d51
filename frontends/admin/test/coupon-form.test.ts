import { couponMessages, createCouponSchema, type CouponView } from '@ticketing/proto';
import {
  couponStatusOf,
  NEW_COUPON,
  saoPauloInstant,
  typedAmount,
  typedCount,
  usesLabel,
  validityLabel,
} from '../src/coupons/coupon-form.ts';

const coupon: CouponView = {
  id: '7d0c3f0e-8f0e-4c39-9f56-2a5f7d7a1b11',
  code: 'FARMA10',
  eventId: null,
  eventTitle: null,
  percentOff: 10,
  amountOff: null,
  maxUses: null,
  usedCount: 0,
  startsAt: null,
  endsAt: null,
  ticketTypeIds: [],
  isActive: true,
  createdAt: '2030-01-01T12:00:00.000Z',
};

test('the validity typed in São Paulo reaches the API as an instant with its offset', () => {
  expect(saoPauloInstant('2031-01-10T08:00')).toBe('2031-01-10T08:00:00-03:00');
  expect(saoPauloInstant('')).toBeNull();
  const checked = createCouponSchema.parse({
    ...NEW_COUPON,
    code: 'farma10',
    percentOff: typedCount('10'),
    startsAt: saoPauloInstant('2031-01-10T08:00'),
    endsAt: saoPauloInstant('2031-01-31T23:59'),
  });
  expect(checked).toMatchObject({ code: 'FARMA10', percentOff: 10, amountOff: null, maxUses: null });
  expect(new Date(checked.startsAt!).toISOString()).toBe('2031-01-10T11:00:00.000Z');
});

test('one discount only, and an end after the start: the API’s messages', () => {
  const messages = (values: object) =>
    Object.fromEntries(
      (createCouponSchema.safeParse({ ...NEW_COUPON, code: 'FARMA10', ...values }).error?.issues ?? []).map((issue) => [
        issue.path.join('.'),
        issue.message,
      ]),
    );
  expect(messages({})).toEqual({ percentOff: couponMessages.discountOne });
  expect(messages({ percentOff: 10, amountOff: typedAmount('25,00') })).toEqual({
    percentOff: couponMessages.discountOne,
  });
  expect(messages({ amountOff: typedAmount('25,00'), maxUses: typedCount('') })).toEqual({});
  expect(
    messages({
      percentOff: 10,
      startsAt: saoPauloInstant('2031-02-01T00:00'),
      endsAt: saoPauloInstant('2031-01-01T00:00'),
    }),
  ).toEqual({ endsAt: couponMessages.window });
});

test('the list says uses of the limit, the validity and the status', () => {
  expect(usesLabel({ usedCount: 3, maxUses: 100 })).toBe('3 de 100');
  expect(usesLabel({ usedCount: 3, maxUses: null })).toBe('3 (sem limite)');
  expect(validityLabel({ startsAt: null, endsAt: null })).toBe('Sem prazo');
  expect(validityLabel({ startsAt: '2031-01-10T11:00:00.000Z', endsAt: null })).toBe('A partir de 10/01/2031, 08:00');
  const now = Date.parse('2031-01-15T12:00:00.000Z');
  expect(couponStatusOf(coupon, now).label).toBe('Ativo');
  expect(couponStatusOf({ ...coupon, isActive: false }, now).label).toBe('Desativado');
  expect(couponStatusOf({ ...coupon, maxUses: 3, usedCount: 3 }, now).label).toBe('Esgotado');
  expect(couponStatusOf({ ...coupon, endsAt: '2031-01-15T11:59:00.000Z' }, now).label).toBe('Expirado');
  expect(couponStatusOf({ ...coupon, startsAt: '2031-01-16T00:00:00.000Z' }, now).label).toBe('Agendado');
});
