import { maskCpf, sessionLabel, type ParticipantsFilter, type ParticipantsView } from '@ticketing/proto';
import {
  checkedInBySession,
  countParticipants,
  listParticipants,
  participantTotals,
  type ParticipantsWhere,
} from '../data/participants-repository.ts';
import { firstAdmission, type Admissions } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { sessionsOfEvent } from './door-sessions.ts';

export const PARTICIPANTS_PAGE_SIZE = 50;

/** The CPF digits of a query typed as one (`123.456.789-09`, `12345678909`, `123.456`); null otherwise. */
export function cpfDigitsOf(q: string): string | null {
  if (!/^[\d.\-\s]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '');
  return digits.length >= 3 ? digits : null;
}

/**
 * The filters as the tickets table reads them: administrators find a holder by part of a name, e-mail, order
 * number or the start of a CPF.
 */
export function participantsWhere({ eventId, q, status, checkedIn, sessionId }: ParticipantsFilter): ParticipantsWhere {
  return {
    eventId: eventId.toLowerCase(),
    search: q === undefined ? undefined : { text: q, cpfDigits: cpfDigitsOf(q) },
    status,
    checkedIn,
    sessionId: sessionId?.toLowerCase(),
  };
}

/** When a ticket was admitted to each session, as ISO times. */
export const admissionTimes = (admissions: Admissions): Record<string, string> =>
  Object.fromEntries(Object.entries(admissions).map(([session, { at }]) => [session, at.toISOString()]));

/** The event's sessions as the participants' list and spreadsheet name them ('Dia 1 — 06/12'). */
export async function labelledSessions(deps: Pick<TicketsDeps, 'db'>, eventId: string) {
  const sessions = await sessionsOfEvent(deps, eventId);
  return sessions.map((session, position) => ({ ...session, label: sessionLabel(session, position) }));
}

/**
 * An event's participants for the back office: every ticket, bought or courtesy, a page at a time, the CPF masked;
 * the totals are the whole event's, whatever the filters.
 */
export async function listEventParticipants(
  deps: Pick<TicketsDeps, 'db'>,
  request: ParticipantsFilter & { page: number },
): Promise<ParticipantsView> {
  const where = participantsWhere(request);
  const [rows, matching, totals, sessions, bySession] = await Promise.all([
    listParticipants(deps.db, where, {
      limit: PARTICIPANTS_PAGE_SIZE,
      offset: (request.page - 1) * PARTICIPANTS_PAGE_SIZE,
    }),
    countParticipants(deps.db, where),
    participantTotals(deps.db, where.eventId),
    labelledSessions(deps, where.eventId),
    checkedInBySession(deps.db, where.eventId),
  ]);
  return {
    eventId: where.eventId,
    sessions: sessions.map(({ id, label, startsAt, endsAt }) => ({
      id,
      label,
      startsAt,
      endsAt,
      checkedIn: bySession.get(id) ?? 0,
    })),
    tickets: rows.map((row) => ({
      ticketId: row.ticketId,
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      ticketType: row.ticketType,
      holderName: row.holderName,
      holderEmail: row.holderEmail,
      cpf: maskCpf(row.holderCpf),
      paymentMethod: row.paymentMethod,
      status: row.status,
      checkedInAt: firstAdmission(row.admissions)?.toISOString() ?? null,
      admissions: admissionTimes(row.admissions),
    })),
    page: request.page,
    pageSize: PARTICIPANTS_PAGE_SIZE,
    matching,
    totalPages: Math.max(1, Math.ceil(matching / PARTICIPANTS_PAGE_SIZE)),
    totals,
  };
}
