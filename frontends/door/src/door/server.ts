import type { DoorReading, DoorReadingsView, DoorTicketsView, ScanView } from '@ticketing/proto';
import { api, isApiError, type ApiOptions } from '@ticketing/shared';
import { deviceId } from './device.ts';

/** A door call either answered, or says why not: no server at hand, or a session the server no longer accepts. */
export type Reached<T> =
  { ok: true; value: T } | { ok: false; why: 'unreachable' | 'expired' | 'refused'; message: string };

/** How long a reading waits for the server before the door's own verdict stands. */
const VERDICT_WAIT_MS = 1500;
const SYNC_WAIT_MS = 15_000;

/**
 * A call of the door's: a 401 never ends the session here (the door keeps scanning and asks for a new login), and
 * 5xx, a network failure or no answer in time all mean the server cannot be reached just now.
 */
async function doorCall<T>(path: string, waitMs: number, options: ApiOptions = {}): Promise<Reached<T>> {
  try {
    const value = await api<T>(path, { ...options, keepSessionOn401: true, signal: AbortSignal.timeout(waitMs) });
    return { ok: true, value };
  } catch (error) {
    if (isApiError(error, 401)) return { ok: false, why: 'expired', message: error.message };
    if (isApiError(error) && error.status < 500) return { ok: false, why: 'refused', message: error.message };
    return { ok: false, why: 'unreachable', message: 'Sem conexão com o servidor' };
  }
}

/** A reading for the event's session `sessionId` (undefined: every event, or the session whose door is open). */
export const verifyOnServer = (qrCodeData: string, eventId: string | undefined, sessionId: string | undefined) =>
  doorCall<ScanView>('/verify-ticket', VERDICT_WAIT_MS, {
    method: 'POST',
    body: { qrCodeData, deviceId: deviceId(), ...(eventId ? { eventId } : {}), ...(sessionId ? { sessionId } : {}) },
  });

/** Admits a guest the look-up found, by their ticket's id: the server reads it as a scan of their QR code. */
export const admitOnServer = (eventId: string, sessionId: string, ticketId: string) =>
  doorCall<ScanView>(
    `/door/events/${encodeURIComponent(eventId)}/tickets/${encodeURIComponent(ticketId)}/admit`,
    SYNC_WAIT_MS,
    { method: 'POST', body: { deviceId: deviceId(), sessionId } },
  );

export const fetchKeys = () =>
  doorCall<{ format: string; keys: { kid: string; x: string }[] }>('/ticket-keys', SYNC_WAIT_MS);

export const fetchTickets = (eventId: string, after: string | undefined) =>
  doorCall<DoorTicketsView>(
    `/door/events/${encodeURIComponent(eventId)}/tickets?${new URLSearchParams({
      deviceId: deviceId(),
      ...(after ? { after } : {}),
    })}`,
    SYNC_WAIT_MS,
  );

/** Readings queued for one event and session (null: each in the session whose door was open when it was read). */
export const sendReadings = (eventId: string, sessionId: string | null, readings: DoorReading[]) =>
  doorCall<DoorReadingsView>('/door/readings', SYNC_WAIT_MS, {
    method: 'POST',
    body: { deviceId: deviceId(), eventId, ...(sessionId ? { sessionId } : {}), readings },
  });

export const renewSession = () =>
  doorCall<{ token: string; expiresAt: string }>('/auth/renew', SYNC_WAIT_MS, { method: 'POST' });
