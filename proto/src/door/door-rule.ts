import type { ScanCode } from '../api/tickets.ts';
import { scanMessages } from '../scan-messages.ts';
import type { TicketClaims } from './qr-text.ts';

/** What the door rule needs to know of a ticket, as the server stores it or a phone downloaded it. */
export interface TicketAtDoor {
  eventId: string;
  version: number;
  status: 'valid' | 'cancelled';
  /**
   * When it was admitted to the session the door checks in (a ticket admits once per session); on a phone, also an
   * admission still queued there.
   */
  usedAt: Date | string | null;
}

/** A reading to decide: what its QR code says (undefined: no ticket signed by a key in use) and what is known. */
export interface Reading {
  claims: TicketClaims | undefined;
  /** The event this door checks in; undefined lets any event's tickets in. */
  doorEventId: string | undefined;
  /** The ticket the claims name, undefined when unknown. */
  ticket: TicketAtDoor | undefined;
  /** The title of the event the claims name, for a ticket of another event. */
  claimedEventTitle?: string | null;
}

/** The door's verdict on a reading: `valid` lets the holder in. */
export interface DoorDecision {
  code: ScanCode;
  message: string;
}

/**
 * The one rule of the door, decided alike by the tickets service and by a phone offline: a signed QR code, of the
 * door's event, of a ticket known, for the ticket's current version, not cancelled, and not used yet in the session
 * the door checks in. Checked in
 * this order, so both say the same of the same reading: the event comes first because a phone only holds its
 * door's tickets.
 */
export function decideReading({ claims, doorEventId, ticket, claimedEventTitle }: Reading): DoorDecision {
  const refused = (code: ScanCode, message: string): DoorDecision => ({ code, message });
  if (!claims) return refused('invalid', scanMessages.invalid);
  if (doorEventId && claims.eventId !== doorEventId)
    return refused('wrong_event', scanMessages.wrongEvent(claimedEventTitle ?? null));
  if (!ticket) return refused('not_found', scanMessages.notFound);
  if (ticket.eventId !== claims.eventId) return refused('invalid', scanMessages.invalid);
  if (ticket.version !== claims.version) return refused('invalid', scanMessages.outdated);
  if (ticket.status === 'cancelled') return refused('cancelled', scanMessages.cancelled);
  if (ticket.usedAt) return refused('already_used', scanMessages.alreadyUsed(ticket.usedAt));
  return { code: 'valid', message: scanMessages.valid };
}

/** Whether a decision leaves only the ticket's use between the holder and the door (an admission may stand). */
export const admissibleButForUse = (decision: DoorDecision) =>
  decision.code === 'valid' || decision.code === 'already_used';
