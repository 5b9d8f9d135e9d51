/**
 * The text a ticket's QR code carries, verifiable offline by anyone holding the public keys:
 *
 *   T1.<base64url(ticket id 16 bytes ‖ event id 16 bytes ‖ version 1 byte)>.<kid>.<base64url(Ed25519 signature)>
 *
 * The signature covers everything before its dot (prefix, payload and key id). About 140 characters, so the
 * QR code stays low-density and reads fast on a phone at the door. Read alike by the tickets service and by the
 * door's phones (plain JavaScript: no Node buffers).
 */
export const QR_FORMAT = 'T1';
/** Longer than any text the tickets service signs; anything longer is not worth parsing. */
export const QR_TEXT_MAX_LENGTH = 512;

const PAYLOAD_BYTES = 33;
const SIGNATURE_BYTES = 64;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const KID = /^[A-Za-z0-9_-]{1,16}$/;

/** What a ticket's QR code says: the ticket, its event and the version of it the code admits. */
export interface TicketClaims {
  ticketId: string;
  eventId: string;
  version: number;
}

/** A QR text that has the right shape; its signature is not checked yet. */
export interface QrText {
  claims: TicketClaims;
  kid: string;
  /** The bytes the signature covers. */
  signed: Uint8Array;
  signature: Uint8Array;
}

/** Decodes base64url only in its one canonical spelling, so no two texts carry the same bytes. */
export function decodeBase64url(text: string, length: number): Uint8Array | undefined {
  if (!BASE64URL.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return undefined;
  }
  const canonical = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  if (binary.length !== length || canonical !== text) return undefined;
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Reads the parts of a QR text; undefined when it is not one the tickets service could have made. */
export function parseQrText(text: string): QrText | undefined {
  if (text.length > QR_TEXT_MAX_LENGTH) return undefined;
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const [format, payloadText, kid, signatureText] = parts as [string, string, string, string];
  if (format !== QR_FORMAT || !KID.test(kid)) return undefined;
  const payload = decodeBase64url(payloadText, PAYLOAD_BYTES);
  const signature = decodeBase64url(signatureText, SIGNATURE_BYTES);
  if (!payload || !signature) return undefined;
  const version = payload[32]!;
  if (version === 0) return undefined;
  return {
    claims: { ticketId: uuidOf(payload.subarray(0, 16)), eventId: uuidOf(payload.subarray(16, 32)), version },
    kid,
    signed: new TextEncoder().encode(`${format}.${payloadText}.${kid}`),
    signature,
  };
}

/**
 * The claims of a QR text whose signature checks out (`verifies`: against the key it names, with whatever crypto
 * the reader has); undefined for anything else.
 */
export async function trustedClaims(
  text: string,
  verifies: (qr: QrText) => boolean | Promise<boolean>,
): Promise<TicketClaims | undefined> {
  const parsed = parseQrText(text);
  return parsed && (await verifies(parsed)) ? parsed.claims : undefined;
}
