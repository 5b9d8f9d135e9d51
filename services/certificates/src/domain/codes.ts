import { randomBytes } from 'node:crypto';
import { certificatePagePath } from '@ticketing/proto';

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A fresh certificate code: 80 random bits (16 symbols of 5 bits) in four groups of four (`7KQ2-M9XD-4T1H-0BZC`). */
export function newCertificateCode(): string {
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let symbols = '';
  for (let index = 15; index >= 0; index--) symbols += ALPHABET[Number((bits >> BigInt(index * 5)) & 31n)];
  return symbols.match(/.{4}/g)!.join('-');
}

/** The page that checks a certificate: what its QR code opens. */
export const verifyUrl = (siteUrl: string, code: string) => `${siteUrl}${certificatePagePath(code)}`;
