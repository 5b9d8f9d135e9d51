import type { ScanView } from '@ticketing/proto';
import { doorDb, markUsed, type StoredReading } from './db.ts';
import { decideLocally } from './local-verify.ts';
import { verifyOnServer } from './server.ts';
import type { DoorSync } from './sync.ts';
import { doorTexts, type Verdict } from './verdict.ts';

/** Longer texts are no ticket of ours, and the server would not take them back. */
const QR_TEXT_MAX_LENGTH = 512;

const fromServer = (answer: ScanView): Verdict => ({
  admitted: answer.success,
  code: answer.code,
  message: answer.message || (answer.success ? doorTexts.valid : 'Erro'),
  holder: answer.success ? answer.userName || 'Verificado' : answer.userName,
  eventTitle: answer.eventTitle,
  ticketId: answer.ticketId ?? null,
  orderId: answer.orderId ?? null,
});

/** Keeps the reading on the device, queued for the server unless the server already recorded it. */
async function keep(reading: StoredReading, queued: boolean) {
  const db = await doorDb();
  const tx = db.transaction(['readings', 'queue'], 'readwrite');
  const { readingId, eventId, qrCodeData, readAt, admitted, ticketId } = reading;
  await Promise.all([
    tx.objectStore('readings').put(reading),
    queued && tx.objectStore('queue').put({ readingId, eventId, qrCodeData, readAt, admitted, ticketId }),
  ]);
  await tx.done;
}

/**
 * One reading at the door: decided on the device first (when an event is chosen), then asked of the server, whose
 * verdict wins when it answers in time. Without an answer the device's verdict stands and the reading is queued
 * until the server records it. Resolves to the verdict and who gave it.
 */
export async function readTicket(
  text: string,
  eventId: string | undefined,
  sync: DoorSync,
  eventTitle: (eventId: string) => string | null,
): Promise<{ verdict: Verdict; by: 'server' | 'device' }> {
  const qrCodeData = text.trim();
  const reading = { readingId: crypto.randomUUID(), readAt: new Date().toISOString(), qrCodeData };
  const local = eventId ? await decideLocally(qrCodeData, eventId, eventTitle) : undefined;

  if (sync.reachable) {
    const answer = await verifyOnServer(qrCodeData, eventId);
    if (answer.ok) {
      const verdict = fromServer(answer.value);
      await keep({ ...reading, ...summary(verdict), eventId: eventId ?? '' }, false);
      if (verdict.admitted && verdict.ticketId) await markUsed(verdict.ticketId, reading.readAt);
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
  await keep({ ...reading, ...summary(local), eventId }, qrCodeData.length <= QR_TEXT_MAX_LENGTH);
  void sync.recorded();
  return { verdict: local, by: 'device' };
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
});
