import { verifyAsync } from '@noble/ed25519';
import { decodeBase64url, trustedClaims as claimsOf, type TicketClaims } from '@ticketing/proto';
import { doorDb, queueDb } from './db.ts';
import { usedInSession } from './door-session.ts';
import { deviceVerdict, type Verdict } from './verdict.ts';

/** The claims of a QR text signed by a key this device holds; undefined for anything else. */
export const trustedClaims = (text: string): Promise<TicketClaims | undefined> =>
  claimsOf(text, async (qr) => {
    const key = await (await doorDb()).get('keys', qr.kid);
    const publicKey = key && decodeBase64url(key.x, 32);
    return !!publicKey && verifyAsync(qr.signature, qr.signed, publicKey).catch(() => false);
  });

/**
 * The door's own verdict on a reading for `eventId`'s session `sessionId` (the `claims` of its QR code, undefined
 * when it is no ticket signed by a key this device holds), by the door's one rule, from the ticket list downloaded
 * and the admissions made on this device since: a ticket admitted to another session is let in again. `eventTitle`
 * names another event's ticket.
 */
export async function decideLocally(
  claims: TicketClaims | undefined,
  eventId: string,
  sessionId: string,
  eventTitle: (eventId: string) => string | null,
): Promise<Verdict> {
  // A phone holds its door's tickets only: another event's ticket is refused by its claims alone.
  const stored = claims?.eventId === eventId ? await (await doorDb()).get('tickets', claims.ticketId) : undefined;
  const queued = stored ? await (await queueDb()).getAllFromIndex('queue', 'byTicket', stored.id) : [];
  const ticket = stored && { ...stored, usedAt: usedInSession(stored, sessionId, queued) };
  const claimedEventTitle = claims && claims.eventId !== eventId ? eventTitle(claims.eventId) : null;
  return deviceVerdict({ claims, doorEventId: eventId, ticket, claimedEventTitle }, eventTitle(eventId));
}
