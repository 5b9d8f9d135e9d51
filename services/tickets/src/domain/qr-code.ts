import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { isUuid, QR_FORMAT, type QrText, type TicketClaims } from '@ticketing/proto';

/** Signing a ticket's QR text (its format is proto's `parseQrText`, which the door's phones read too). */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

const uuidBytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

export function signTicket(claims: TicketClaims, key: SigningKey): string {
  if (!isUuid(claims.ticketId) || !isUuid(claims.eventId)) throw new Error('ticket and event ids must be UUIDs');
  if (!Number.isInteger(claims.version) || claims.version < 1 || claims.version > 255)
    throw new Error('version must be between 1 and 255');
  const payload = Buffer.concat([uuidBytes(claims.ticketId), uuidBytes(claims.eventId), Buffer.of(claims.version)]);
  const signed = `${QR_FORMAT}.${payload.toString('base64url')}.${key.kid}`;
  const signature = sign(null, Buffer.from(signed), key.privateKey);
  return `${signed}.${signature.toString('base64url')}`;
}

export function hasValidSignature(parsed: QrText, publicKey: KeyObject): boolean {
  return verify(null, parsed.signed, publicKey, parsed.signature);
}

/** A new Ed25519 key pair as stored: raw public key and private seed in base64url, and a short key id. */
export function generateKeyMaterial(): { kid: string; publicKey: string; privateKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const kid = createHash('sha256').update(Buffer.from(jwk.x!, 'base64url')).digest('base64url').slice(0, 8);
  return { kid, publicKey: jwk.x!, privateKey: jwk.d! };
}
