import type { DoorSearchHit, DoorSearchView } from '@ticketing/proto';
import { api, formatTime } from '@ticketing/shared';

/** The query key of an event's look-ups; every search of the event starts with it. */
export const searchKey = (eventId: string) => ['door', 'events', eventId, 'search'] as const;

/**
 * The event's tickets matching `q` (name, CPF, e-mail or order code), each used or not in the session `sessionId`.
 * A refused login is an error to show here, never a logout: the door keeps its queue and its camera.
 */
export const searchTickets = (eventId: string, sessionId: string, q: string, signal: AbortSignal) =>
  api<DoorSearchView>(`/door/events/${encodeURIComponent(eventId)}/search?${new URLSearchParams({ q, sessionId })}`, {
    signal,
    keepSessionOn401: true,
  });

/** Where the guest stands at the door. */
export function ticketState(hit: DoorSearchHit): { label: string; tone: 'success' | 'neutral' | 'danger' } {
  if (hit.status === 'cancelled') return { label: 'Cancelado', tone: 'danger' };
  if (hit.usedAt) return { label: `Já entrou às ${formatTime(hit.usedAt)}`, tone: 'neutral' };
  return { label: 'Não entrou', tone: 'success' };
}
