import type { ParticipantView, ParticipantsView } from '@ticketing/proto';
import { api, queryPath, type BadgeTone } from '@ticketing/shared';

/** The filters as the page holds them; an empty field filters nothing. */
export interface ParticipantsFilters {
  q: string;
  status: '' | ParticipantView['status'];
  checkedIn: '' | 'true' | 'false';
  /** The session `checkedIn` is about; '' for any (an event of one session has no choice). */
  sessionId: string;
}

export const NO_FILTERS: ParticipantsFilters = { q: '', status: '', checkedIn: '', sessionId: '' };

/** A session as the participants' list names it. */
export type ParticipantsSession = Pick<ParticipantsView['sessions'][number], 'id' | 'label'>;

/** Every query of the participants' lists starts with this key (a reset or a resend makes them all stale). */
export const PARTICIPANTS_KEY = ['admin', 'tickets'] as const;

/** The query string the list and the spreadsheet share: the event and the filters set. */
const filterParams = (eventId: string, { q, status, checkedIn, sessionId }: ParticipantsFilters) => ({
  eventId,
  q: q.trim() || undefined,
  status: status || undefined,
  checkedIn: checkedIn || undefined,
  sessionId: sessionId || undefined,
});

export const participantsKey = (eventId: string, filters: ParticipantsFilters, page: number) =>
  [...PARTICIPANTS_KEY, { ...filterParams(eventId, filters), page }] as const;

/** GET /api/admin/tickets/export.csv with the same filters as the list on screen. */
export const exportPath = (eventId: string, filters: ParticipantsFilters) =>
  queryPath([...PARTICIPANTS_KEY, 'export.csv', filterParams(eventId, filters)]);

/** Every participant that matches, page after page: the printed list is the whole event, not the page on screen. */
export async function allParticipants(eventId: string, filters: ParticipantsFilters): Promise<ParticipantView[]> {
  const tickets: ParticipantView[] = [];
  for (let page = 1, totalPages = 1; page <= totalPages; page++) {
    const answer = await api<ParticipantsView>(queryPath(participantsKey(eventId, filters, page)));
    tickets.push(...answer.tickets);
    totalPages = answer.totalPages;
  }
  return tickets;
}

/** Where a ticket stands: cancelled (refunded), used at the door, or still to be used. */
export function ticketState(ticket: ParticipantView): { tone: BadgeTone; label: string } {
  if (ticket.status === 'cancelled') return { tone: 'danger', label: 'Cancelado' };
  return ticket.checkedInAt ? { tone: 'brand', label: 'Entrada registrada' } : { tone: 'success', label: 'Válido' };
}

/**
 * The filters set, in words, for the printed list ('Busca: “ana” · Ainda não entraram em Dia 2 — 07/12'); empty
 * when none is.
 */
export function filtersInWords(
  { q, status, checkedIn, sessionId }: ParticipantsFilters,
  sessions: readonly ParticipantsSession[] = [],
): string {
  const session = sessions.find((found) => found.id === sessionId)?.label;
  const entrance = checkedIn && { true: 'Já entraram', false: 'Ainda não entraram' }[checkedIn];
  return [
    q.trim() && `Busca: “${q.trim()}”`,
    status && { valid: 'Válidos', cancelled: 'Cancelados' }[status],
    entrance && session ? `${entrance} em ${session}` : entrance,
  ]
    .filter(Boolean)
    .join(' · ');
}
