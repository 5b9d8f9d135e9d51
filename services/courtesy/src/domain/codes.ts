import { randomInt } from 'node:crypto';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A fresh courtesy code in the house style: the prefix, 5 digits and 3 letters (CDPI12345ABC), from a CSPRNG. */
export function newCode(prefix: string): string {
  const digits = String(randomInt(0, 100_000)).padStart(5, '0');
  const letters = Array.from({ length: 3 }, () => LETTERS[randomInt(0, LETTERS.length)]).join('');
  return `${prefix}${digits}${letters}`;
}

/** A free link opens the redemption page; a promotional one opens the event page with its price. */
export const redeemUrl = (siteUrl: string, link: { code: string; eventId: string; overridePrice: string | null }) =>
  link.overridePrice === null
    ? `${siteUrl}/cortesia?code=${link.code}`
    : `${siteUrl}/event/${link.eventId}?promo=${link.code}`;

/** The catalog hold that keeps a free link's spots, named after the link so every retry is the same hold. */
export const linkHoldId = (linkId: string) => `courtesy-link:${linkId}`;
