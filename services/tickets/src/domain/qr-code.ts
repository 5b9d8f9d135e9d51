import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { isUuid } from '@ticketing/proto';

/**
 * The text a ticket's QR code carries, verifiable offline by anyone holding the public keys:
 *
 *   T1.<base64url(ticket id 16 bytes ‖ event id 16 bytes ‖ version 1 byte)>.<kid>.<base64url(Ed25519 signature)>
 *
 * The signature covers everything before its dot (prefix, payload and key id). About 140 characters, so the
 * QR code stays low-density and reads fast on a phone at the door.
 */
export const QR_FORMAT = 'T1';
/** Longer than any text this service signs; anything longer is not worth parsing. */
export const QR_TEXT_MAX_LENGTH = 512;

const PAYLOAD_BYTES = 33;
const SIGNATURE_BYTES = 64;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KID = /^[A-Za-z0-9_-]{1,16}$/;

export interface TicketClaims {
  ticketId: string;
  eventId: string;
  version: number;
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** A QR text that has the right shape; its signature is not checked yet. */
export interface ParsedQrText {
  claims: TicketClaims;
  kid: string;
  signed: Buffer;
  signature: Buffer;
}

const uuidBytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

function uuidOf(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Decodes base64url only in its one canonical spelling, so no two texts carry the same bytes. */
function canonicalBase64url(text: string, length: number): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length === length && bytes.toString('base64url') === text ? bytes : undefined;
}

export function signTicket(claims: TicketClaims, key: SigningKey): string {
  if (!isUuid(claims.ticketId) || !isUuid(claims.eventId)) throw new Error('ticket and event ids must be UUIDs');
  if (!Number.isInteger(claims.version) || claims.version < 1 || claims.version > 255)
    throw new Error('version must be between 1 and 255');
  const payload = Buffer.concat([uuidBytes(claims.ticketId), uuidBytes(claims.eventId), Buffer.of(claims.version)]);
  const signed = `${QR_FORMAT}.${payload.toString('base64url')}.${key.kid}`;
  const signature = sign(null, Buffer.from(signed), key.privateKey);
  return `${signed}.${signature.toString('base64url')}`;
}

/** Reads the parts of a QR text; undefined when it is not one this service could have made. */
export function parseQrText(text: string): ParsedQrText | undefined {
  if (text.length > QR_TEXT_MAX_LENGTH) return undefined;
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const [format, payloadText, kid, signatureText] = parts as [string, string, string, string];
  if (format !== QR_FORMAT || !KID.test(kid)) return undefined;
  const payload = canonicalBase64url(payloadText, PAYLOAD_BYTES);
  const signature = canonicalBase64url(signatureText, SIGNATURE_BYTES);
  if (!payload || !signature) return undefined;
  const version = payload[32]!;
  if (version === 0) return undefined;
  return {
    claims: { ticketId: uuidOf(payload.subarray(0, 16)), eventId: uuidOf(payload.subarray(16, 32)), version },
    kid,
    signed: Buffer.from(`${format}.${payloadText}.${kid}`),
    signature,
  };
}

export function hasValidSignature(parsed: ParsedQrText, publicKey: KeyObject): boolean {
  return verify(null, parsed.signed, publicKey, parsed.signature);
}

/** A new Ed25519 key pair as stored: raw public key and private seed in base64url, and a short key id. */
export function generateKeyMaterial(): { kid: string; publicKey: string; privateKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(Buffer.from(jwk.x!, 'base64url')).digest('base64url').slice(0, 8);
  return { kid, publicKey: jwk.x!, privateKey: jwk.d! };
}
