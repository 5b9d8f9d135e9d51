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
  /** When the order stops holding its spot if still unpaid: never after the event starts. */
  expiresAt: Date;
  /** The provider's due date ('YYYY-MM-DD', São Paulo). */
  dueDate: string;
}

/** Why no window fits before the event: a boleto would clear too late, or there is no time left at all. */
export type NoWindow = 'boleto_too_late' | 'no_time';

const MINUTE_MS = 60_000;

/**
 * PIX: 30 minutes. Card: 24 hours. Boleto: until 23:59:59 (São Paulo) of the 7th business day. None ends after the
 * event starts: PIX and card end at the start at the latest; a boleto's due date is brought forward until its money,
 * cleared up to 3 business days after the due day, arrives before the start (a boleto due today is the shortest).
 * A window under 5 minutes, or no boleto day left, answers why there is none.
 */
export function paymentWindow(method: PaymentMethod, now: Date, eventStartsAt: Date): PaymentWindow | NoWindow {
  const start = eventStartsAt.getTime();
  let expiresAt: Date;
  if (method === 'boleto') {
    const dueDate = latestBoletoDueDate(now, eventStartsAt);
    if (!dueDate) return 'boleto_too_late';
    expiresAt = endOfLocalDay(dueDate);
  } else {
    const length =
      method === 'pix' ? PAYMENT_WINDOWS.pixMinutes * MINUTE_MS : PAYMENT_WINDOWS.cardHours * 60 * MINUTE_MS;
    expiresAt = new Date(Math.min(now.getTime() + length, start));
  }
  if (expiresAt.getTime() - now.getTime() < PAYMENT_WINDOWS.minimumMinutes * MINUTE_MS) {
    return method === 'boleto' ? 'boleto_too_late' : 'no_time';
  }
  return { expiresAt, dueDate: localDay(expiresAt) };
}

/** The latest due day, from today to the 7th business day, whose boleto clears before the event; null when none. */
function latestBoletoDueDate(now: Date, eventStartsAt: Date): string | null {
  const today = localDay(now);
  for (let days = PAYMENT_WINDOWS.boletoBusinessDays; days >= 0; days--) {
    const due = addBusinessDays(today, days);
    const cleared = endOfLocalDay(addBusinessDays(due, PAYMENT_WINDOWS.boletoSettlementBusinessDays));
    if (cleared.getTime() <= eventStartsAt.getTime()) return due;
  }
  return null;
}
