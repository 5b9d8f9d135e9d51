import { verifyAsync } from '@noble/ed25519';
import { doorDb, queueDb } from './db.ts';
import { base64url, parseQrText, type Claims } from './qr-claims.ts';
import { doorTexts, type Verdict } from './verdict.ts';

/** The claims of a QR text signed by a key this device holds; undefined for anything else. */
export async function trustedClaims(text: string): Promise<Claims | undefined> {
  const parsed = parseQrText(text);
  const key = parsed && (await (await doorDb()).get('keys', parsed.kid));
  const publicKey = key && base64url(key.x, 32);
  if (!parsed || !publicKey) return undefined;
  if (!(await verifyAsync(parsed.signature, parsed.signed, publicKey).catch(() => false))) return undefined;
  return parsed.claims;
}

/**
 * The door's own verdict on a reading for `eventId` (the `claims` of its QR code, undefined when it is no ticket
 * signed by a key this device holds), from the ticket list downloaded and the admissions made on this device since.
 * `eventTitle` names another event's ticket.
 */
export async function decideLocally(
  claims: Claims | undefined,
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
  const queue = await queueDb();
  const queued = (await queue.getAllFromIndex('queue', 'byTicket', ticket.id)).find((reading) => reading.admitted);
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
