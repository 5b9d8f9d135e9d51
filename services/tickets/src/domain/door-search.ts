import { searchWords } from '@ticketing/platform';
import { maskCpf, type DoorSearchView } from '@ticketing/proto';
import { searchTickets, type DoorLookUp } from '../data/door-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { doorSessionOf } from './door-sessions.ts';

const MAX_HITS = 20;
const CPF_LENGTH = 11;

/** `m***@gmail.com`: enough for the holder to recognise, not enough to copy. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * What a typed query may find at the door. Typed as a CPF (digits, dots, dashes) it finds only a whole one: part of
 * a CPF, with the mask shown in the answers, would rebuild every guest's. An e-mail finds only a whole one; anything
 * else finds names containing each of its words, or a whole order number. Null: nothing may match.
 */
export function doorLookUpOf(q: string): DoorLookUp | null {
  if (/^[\d.\-\s]+$/.test(q)) {
    const digits = q.replace(/\D/g, '');
    return digits.length === CPF_LENGTH ? { cpf: digits } : null;
  }
  if (q.includes('@')) return { email: q.toLowerCase() };
  return { words: searchWords(q), orderNumber: q.toLowerCase() };
}

/**
 * The door's manual look-up, for a QR code that will not scan: the event's tickets by the holder's name, CPF,
 * e-mail or order number, each saying whether it was admitted to the session looked up for, with the e-mail and CPF masked and no QR text (admitting from a result goes by the
 * ticket's id, see admitFromLookUp).
 */
export async function searchDoorTickets(
  deps: Pick<TicketsDeps, 'db'>,
  request: { eventId: string; q: string; sessionId: string | undefined },
): Promise<DoorSearchView> {
  const eventId = request.eventId.toLowerCase();
  const lookUp = doorLookUpOf(request.q);
  const [{ session }, rows] = await Promise.all([
    doorSessionOf(deps, eventId, request.sessionId),
    lookUp ? searchTickets(deps.db, eventId, lookUp, MAX_HITS) : [],
  ]);
  return {
    tickets: rows.map((row) => ({
      ticketId: row.ticketId,
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      ticketType: row.ticketType,
      holderName: row.holderName,
      holderEmail: maskEmail(row.holderEmail),
      cpf: maskCpf(row.holderCpf),
      status: row.status,
      usedAt: row.admissions[session.id]?.at.toISOString() ?? null,
    })),
  };
}
