import { verifyAsync } from '@noble/ed25519';
import { doorDb } from './db.ts';
import { doorTexts, type Verdict } from './verdict.ts';

/**
 * The QR text (see the tickets service): `T1.<payload>.<kid>.<signature>`, the payload being ticket id (16 bytes),
 * event id (16 bytes) and version (1 byte), the Ed25519 signature covering everything before its dot.
 */
interface Claims {
  ticketId: string;
  eventId: string;
  version: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function base64url(text: string, length: number): Uint8Array | undefined {
  if (!BASE64URL.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return bytes.length === length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function uuidOf(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The claims of a QR text signed by a key this device holds; undefined for anything else. */
export async function trustedClaims(text: string): Promise<Claims | undefined> {
  const parts = text.split('.');
  if (parts.length !== 4 || parts[0] !== 'T1') return undefined;
  const [, payloadText, kid, signatureText] = parts as [string, string, string, string];
  const payload = base64url(payloadText, 33);
  const signature = base64url(signatureText, 64);
  const key = await (await doorDb()).get('keys', kid);
  const publicKey = key && base64url(key.x, 32);
  if (!payload || !signature || !publicKey || payload[32] === 0) return undefined;
  const signed = new TextEncoder().encode(text.slice(0, text.lastIndexOf('.')));
  if (!(await verifyAsync(signature, signed, publicKey).catch(() => false))) return undefined;
  return {
    ticketId: uuidOf(payload.subarray(0, 16)),
    eventId: uuidOf(payload.subarray(16, 32)),
    version: payload[32]!,
  };
}

/**
 * The door's own verdict on a reading for `eventId`, from the keys and the ticket list downloaded, and the
 * admissions made on this device since. `eventTitle` names another event's ticket.
 */
export async function decideLocally(
  text: string,
  eventId: string,
  eventTitle: (eventId: string) => string | null,
): Promise<Verdict> {
  const refusal = (code: Verdict['code'], message: string, holder: string | null = null): Verdict => ({
    admitted: false,
    code,
    message,
    holder,
    eventTitle: eventTitle(eventId),
    ticketId: null,
    orderId: null,
  });
  const claims = await trustedClaims(text);
  if (!claims) return refusal('invalid', doorTexts.invalid);
  if (claims.eventId !== eventId) {
    const title = eventTitle(claims.eventId);
    return { ...refusal('wrong_event', doorTexts.wrongEvent(title)), eventTitle: title };
  }
  const db = await doorDb();
  const ticket = await db.get('tickets', claims.ticketId);
  if (!ticket) return refusal('not_found', doorTexts.notFound);
  const known = { ticketId: ticket.id, orderId: ticket.orderId };
  if (ticket.version !== claims.version)
    return { ...refusal('invalid', doorTexts.outdated, ticket.holderName), ...known };
  if (ticket.status === 'cancelled')
    return { ...refusal('cancelled', doorTexts.cancelled, ticket.holderName), ...known };
  // An admission still in the queue counts even if a newer list (sent before the server knew of it) said unused.
  const queued = (await db.getAllFromIndex('queue', 'byTicket', ticket.id)).find((reading) => reading.admitted);
  const usedAt = ticket.usedAt ?? queued?.readAt;
  if (usedAt) return { ...refusal('already_used', doorTexts.alreadyUsed(usedAt), ticket.holderName), ...known };
  return {
    admitted: true,
    code: 'valid',
    message: doorTexts.valid,
    holder: ticket.holderName,
    eventTitle: eventTitle(eventId),
    ...known,
  };
}
