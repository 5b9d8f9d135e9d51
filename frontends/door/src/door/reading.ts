import { doorDb, markUsed, queueDb, type QueuedReading, type StoredReading } from './db.ts';
import { trimReadings } from './forget.ts';
import { decideLocally, trustedClaims } from './local-verify.ts';
import { admitOnServer, verifyOnServer } from './server.ts';
import type { DoorSync } from './sync.ts';
import { doorTexts, serverVerdict, type Verdict } from './verdict.ts';

/** Keeps the reading for 'Últimas leituras' (the last few only: the server has the others, or they are queued). */
async function show(reading: StoredReading) {
  await (await doorDb()).put('readings', reading);
  await trimReadings();
}

/** Queues a reading for the server with only what it needs: the QR code's claims, never its text. */
async function enqueue(reading: QueuedReading) {
  await (await queueDb()).put('queue', reading);
}

/** Where the door reads: an event and the session it checks in, or every event (neither). */
export type DoorPlace = { eventId: string; sessionId: string } | { eventId: undefined; sessionId: undefined };

/**
 * One reading at the door: decided on the device first (when an event is chosen), then asked of the server, whose
 * verdict wins when it answers in time. Without an answer the device's verdict stands and the reading is queued
 * until the server records it. Resolves to the verdict and who gave it.
 */
export async function readTicket(
  text: string,
  { eventId, sessionId }: DoorPlace,
  sync: DoorSync,
  eventTitle: (eventId: string) => string | null,
): Promise<{ verdict: Verdict; by: 'server' | 'device' }> {
  const qrCodeData = text.trim();
  const reading = { readingId: crypto.randomUUID(), readAt: new Date().toISOString() };
  const claims = eventId ? await trustedClaims(qrCodeData) : undefined;
  const local = eventId ? await decideLocally(claims, eventId, sessionId, eventTitle) : undefined;

  if (sync.reachable) {
    const answer = await verifyOnServer(qrCodeData, eventId, sessionId);
    if (answer.ok) {
      const verdict = serverVerdict(answer.value);
      const session = answer.value.sessionId;
      await show({ ...reading, ...summary(verdict), eventId: eventId ?? '', sessionId: session });
      if (verdict.admitted && verdict.ticketId && session) await markUsed(verdict.ticketId, session, reading.readAt);
      void sync.recorded();
      return { verdict, by: 'server' };
    }
    if (answer.why === 'refused') {
      const verdict = { ...refusedBy(answer.message), eventTitle: local?.eventTitle ?? null };
      return { verdict, by: 'server' };
    }
    sync.noticeFailure(answer.why);
  }

  if (!eventId || !local) return { verdict: refusedBy(doorTexts.unreachable), by: 'device' };
  // Queued first: a reading is never lost.
  await enqueue({ ...reading, eventId, sessionId, claims: claims ?? null, admitted: local.admitted });
  await show({ ...reading, ...summary(local), eventId, sessionId });
  void sync.recorded();
  return { verdict: local, by: 'device' };
}

/**
 * Admits a guest the look-up found, by their ticket's id. The look-up needs the server, and so does this: the
 * server records it as a reading at this door, and it shows here like any other.
 */
export async function admitFromLookUp(
  ticketId: string,
  { eventId, sessionId }: { eventId: string; sessionId: string },
  sync: DoorSync,
): Promise<{ verdict: Verdict; by: 'server' }> {
  const reading = { readingId: crypto.randomUUID(), readAt: new Date().toISOString() };
  const answer = await admitOnServer(eventId, sessionId, ticketId);
  if (!answer.ok) {
    if (answer.why !== 'refused') sync.noticeFailure(answer.why);
    return { verdict: refusedBy(answer.why === 'unreachable' ? doorTexts.unreachable : answer.message), by: 'server' };
  }
  const verdict = serverVerdict(answer.value);
  await show({ ...reading, ...summary(verdict), eventId, sessionId });
  if (verdict.admitted && verdict.ticketId) await markUsed(verdict.ticketId, sessionId, reading.readAt);
  void sync.recorded();
  return { verdict, by: 'server' };
}

const summary = ({ admitted, code, holder, message, ticketId, orderId }: Verdict) => ({
  admitted,
  code,
  holder,
  message,
  ticketId,
  orderId,
});

const refusedBy = (message: string): Verdict => ({
  admitted: false,
  code: 'invalid',
  message,
  holder: null,
  eventTitle: null,
  ticketId: null,
  orderId: null,
  ticketType: null,
});
