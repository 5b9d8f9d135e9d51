import { PAYMENT_WINDOWS } from '@ticketing/proto';
import type { PaymentMethod } from './order.ts';

export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const calendarDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const offsetName = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, timeZoneName: 'longOffset' });

/** The calendar day ('YYYY-MM-DD') an instant falls on in São Paulo. */
export function localDay(instant: Date): string {
  return calendarDay.format(instant);
}

/** São Paulo's offset from UTC at an instant, in minutes (-180 for GMT-03:00). */
function offsetMinutes(instant: Date): number {
  const name = offsetName.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The day `count` business days (Monday to Friday) after `day`. National holidays are not counted apart. */
export function addBusinessDays(day: string, count: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  let left = count;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    const weekday = date.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return date.toISOString().slice(0, 10);
}

/** 23:59:59 of a São Paulo calendar day, as an instant. */
export function endOfLocalDay(day: string): Date {
  const noon = new Date(`${day}T12:00:00Z`);
  const utc = Date.parse(`${day}T23:59:59Z`);
  return new Date(utc - offsetMinutes(noon) * 60_000);
}

export interface PaymentWindow {
  /** When the order stops holding its spot if still unpaid. */
  expiresAt: Date;
  /** The provider's due date ('YYYY-MM-DD', São Paulo). */
  dueDate: string;
}

/** PIX: 30 minutes. Card: 24 hours. Boleto: until 23:59:59 (São Paulo) of the 7th business day. */
export function paymentWindow(method: PaymentMethod, now: Date): PaymentWindow {
  let expiresAt: Date;
  if (method === 'pix') expiresAt = new Date(now.getTime() + PAYMENT_WINDOWS.pixMinutes * 60_000);
  else if (method === 'credit_card') expiresAt = new Date(now.getTime() + PAYMENT_WINDOWS.cardHours * 3_600_000);
  else expiresAt = endOfLocalDay(addBusinessDays(localDay(now), PAYMENT_WINDOWS.boletoBusinessDays));
  return { expiresAt, dueDate: localDay(expiresAt) };
}
