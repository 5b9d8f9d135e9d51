import { PAYMENT_WINDOWS, offsetMs, saoPauloClock } from '@ticketing/proto';
import type { PaymentMethod } from './order.ts';

/** The calendar day ('YYYY-MM-DD') an instant falls on in São Paulo. */
export function localDay(instant: Date): string {
  const clock = saoPauloClock(instant);
  return `${clock.year}-${clock.month}-${clock.day}`;
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
  return new Date(utc - offsetMs(saoPauloClock(noon)));
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
