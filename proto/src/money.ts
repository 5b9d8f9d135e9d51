import { z } from 'zod';

/** Money travels as a decimal string with two places ("150.00") and is computed in integer cents. */
const DECIMAL = /^\d{1,8}(?:[.,]\d{1,2})?$/;

export function toCents(decimal: string): number {
  const [reais, centavos = ''] = decimal.replace(',', '.').split('.');
  return Number(reais) * 100 + Number(centavos.padEnd(2, '0'));
}

export function fromCents(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Accepts 150, 150.5, "150,50" or "150.50" and yields the canonical "150.50". */
export const decimalAmount = (message: string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine((value) => DECIMAL.test(value), { message })
    .transform((value) => fromCents(toCents(value)));
