import type { z } from 'zod';
import type { createCouponSchema, CouponView } from '@ticketing/proto';
import type { BadgeTone } from '@ticketing/shared';
import { formatBRL, formatDateTime } from '@ticketing/shared/format';

/** How the discount is given: a percentage or an amount in reais, one of them. */
export type DiscountKind = 'percent' | 'amount';

export type CouponFormInput = z.input<typeof createCouponSchema>;

export const NEW_COUPON: CouponFormInput = {
  code: '',
  eventId: null,
  percentOff: null,
  amountOff: null,
  maxUses: null,
  startsAt: null,
  endsAt: null,
  ticketTypeIds: [],
};

/** An empty field is none (null); anything else as a number, so a wrong one gets the schema's message. */
export const typedCount = (typed: unknown): number | null =>
  typed === '' || typed === null || typed === undefined ? null : Number(String(typed).replace(',', '.'));

/** An empty amount is none (null); "10,50" stays as typed for the schema to read. */
export const typedAmount = (typed: unknown): string | null =>
  typeof typed === 'string' && typed.trim() !== '' ? typed : null;

/** 'Todos os eventos' (the empty choice) is no event: the coupon is good for every one. */
export const typedEventId = (typed: unknown): string | null => (typed ? String(typed) : null);

/**
 * A `datetime-local` value, São Paulo's wall time ("2030-03-15T09:00"), as the instant the API takes, with its offset:
 * Brazil keeps UTC−03:00 all year. Empty is an open end (null).
 */
export function saoPauloInstant(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed === '') return null;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(typed) ? `${typed}:00-03:00` : typed;
}

/** What the coupon takes off: "10%" or "R$ 25,00". */
export const discountLabel = (coupon: Pick<CouponView, 'percentOff' | 'amountOff'>) =>
  coupon.percentOff !== null ? `${coupon.percentOff}%` : formatBRL(coupon.amountOff ?? 0);

/** 'usados de limite': "3 de 100", or "3 (sem limite)". */
export const usesLabel = (coupon: Pick<CouponView, 'usedCount' | 'maxUses'>) =>
  coupon.maxUses === null ? `${coupon.usedCount} (sem limite)` : `${coupon.usedCount} de ${coupon.maxUses}`;

/** When it is good: between both ends, from one, until the other, or always. */
export function validityLabel({ startsAt, endsAt }: Pick<CouponView, 'startsAt' | 'endsAt'>) {
  if (startsAt && endsAt) return `De ${formatDateTime(startsAt)} até ${formatDateTime(endsAt)}`;
  if (startsAt) return `A partir de ${formatDateTime(startsAt)}`;
  if (endsAt) return `Até ${formatDateTime(endsAt)}`;
  return 'Sem prazo';
}

/** The message for the discount's one field, wherever the schema put it (it reports a missing one on `percentOff`). */
export const discountMessage = (errors: { percentOff?: { message?: string }; amountOff?: { message?: string } }) =>
  errors.percentOff?.message ?? errors.amountOff?.message;

/** Its badge: switched off, used up or past its end, not yet valid, or good now. */
export function couponStatusOf(coupon: CouponView, now = Date.now()): { label: string; tone: BadgeTone } {
  if (!coupon.isActive) return { label: 'Desativado', tone: 'neutral' };
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return { label: 'Esgotado', tone: 'warning' };
  if (coupon.endsAt && Date.parse(coupon.endsAt) <= now) return { label: 'Expirado', tone: 'neutral' };
  if (coupon.startsAt && Date.parse(coupon.startsAt) > now) return { label: 'Agendado', tone: 'brand' };
  return { label: 'Ativo', tone: 'success' };
}
