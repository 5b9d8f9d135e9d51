import { trace } from '@ticketing/platform';
import {
  admissibleButForUse,
  type DoorConflict,
  type DoorReading,
  type DoorReadingResult,
  type ScanCode,
} from '@ticketing/proto';
import { deviceConflicts, insertConflicts, lockDevice, type ConflictRow } from '../data/door-repository.ts';
import { findReadings, insertScans, type NewScan } from '../data/scans-repository.ts';
import { lockTickets, setAdmissions, type Admission, type Ticket } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { checkedIn, decideNow, sessionOfReading } from './verify-ticket.ts';

export interface ReadingsBatch {
  deviceId: string;
  eventId: string;
  /** The session the device was set to; without it, each reading's is the one whose door was open then. */
  sessionId?: string;
  readings: DoorReading[];
  scannedBy: string;
  staffName: string;
}

/** An admission with no device named (an online reading from a scanner that did not say which it was). */
const UNKNOWN_DEVICE = 'desconhecido';

export const toDoorConflict = (row: ConflictRow): DoorConflict => ({
  ticketId: row.ticketId,
  sessionId: row.sessionId,
  holderName: row.holderName,
  admissions: [
    { deviceId: row.keptDevice, at: row.keptAt.toISOString() },
    { deviceId: row.otherDevice, at: row.otherAt.toISOString() },
  ],
});

/**
 * Records the readings a device decided by itself (offline) and sends later, in one transaction. A reading sent
 * again answers what it answered the first time and is recorded once. A reading the
 * door admitted admits the ticket at the time it was read; if another device (or an online reading) admitted it
 * too, the earliest admission is the one the ticket keeps and both are recorded as a conflict. A reading the door
 * refused is recorded with the code the server finds and admits nobody.
 */
export async function syncReadings(deps: TicketsDeps, batch: ReadingsBatch): Promise<DoorReadingResult[]> {
  const { deviceId, eventId, scannedBy } = batch;
  const context = trace.current();
  // The device checked each QR code's signature and kept only its claims: door staff may admit a ticket of their
  // event by its id (the look-up does too), and a QR text left on a phone would get a person in.
  const claims = batch.readings.map((reading) => reading.claims ?? undefined);
  const now = new Date();

  const { results, recorded } = await deps.db.transaction(async (trx) => {
    await lockDevice(trx, deviceId);
    const known = await findReadings(
      trx,
      batch.readings.map((reading) => reading.readingId),
    );
    const tickets = await lockTickets(trx, [...new Set(claims.flatMap((claim) => (claim ? [claim.ticketId] : [])))]);
    // Decided in the order the door read them, so the earliest admission of a batch is the one that stands.
    const order = batch.readings
      .map((reading, i) => ({ reading, claim: claims[i] }))
      .sort((a, b) => Date.parse(a.reading.readAt) - Date.parse(b.reading.readAt));
    const decided = new Map<string, { code: ScanCode; ticketId: string | null; sessionId: string | null }>(known);
    const scans: NewScan[] = [];
    // By ticket and session: the admissions announced and those the rows take.
    const admissions = new Map<string, Admission>();
    const changed = new Set<Ticket>();
    const conflicts: ConflictRow[] = [];
    const recorded: { code: ScanCode; sessionId: string | null }[] = [];

    for (const { reading, claim } of order) {
      if (decided.has(reading.readingId)) continue;
      const ticket = claim ? tickets.get(claim.ticketId) : undefined;
      const readAt = new Date(Math.min(Date.parse(reading.readAt), now.getTime()));
      const sessionId = ticket && sessionOfReading(ticket, batch.sessionId, readAt);
      const decision = claim && decideNow({ ticket, claims: claim, doorEventId: eventId, sessionId });
      // A refused reading gets the code a scan would get now ('invalid' where one would admit); it never admits.
      let code: ScanCode = decision && decision.code !== 'valid' ? decision.code : 'invalid';
      if (ticket && sessionId && reading.admitted && decision && admissibleButForUse(decision)) {
        const standing = ticket.admissions[sessionId];
        const key = `${ticket.id}:${sessionId}`;
        if (!standing) {
          code = 'valid';
          admissions.set(key, admissionOf(ticket, sessionId, readAt));
        } else if (standing.device !== deviceId) {
          code = 'conflict';
          conflicts.push(conflictOf(ticket, sessionId, deviceId, readAt));
        }
        // The earliest admission stands: who admitted it and when follow it.
        if (code !== 'already_used' && (!standing || readAt < standing.at)) {
          ticket.admissions[sessionId] = { at: readAt, by: scannedBy, device: deviceId };
          changed.add(ticket);
        }
      }
      const scanSession = code === 'wrong_event' ? null : (sessionId ?? null);
      decided.set(reading.readingId, { code, ticketId: claim?.ticketId ?? null, sessionId: scanSession });
      recorded.push({ code, sessionId: scanSession });
      scans.push({
        ticketId: claim?.ticketId ?? null,
        scannedBy,
        code,
        doorEventId: eventId,
        sessionId: scanSession,
        deviceId,
        staffName: batch.staffName,
        readingId: reading.readingId,
        readAt,
      });
    }

    await setAdmissions(
      trx,
      [...changed.values()].map((ticket) => ({ ticketId: ticket.id, admissions: ticket.admissions })),
    );
    await insertScans(trx, scans);
    await insertConflicts(
      trx,
      conflicts.map((conflict) => ({ ...conflict, eventId })),
    );
    await deps.outbox.addAll(
      trx,
      [...admissions.values()].map((admission) => checkedIn(admission, scannedBy, context)),
    );

    const conflictTickets = [...decided.values()].flatMap((entry) =>
      entry.code === 'conflict' && entry.ticketId ? [entry.ticketId] : [],
    );
    const told = await deviceConflicts(trx, eventId, deviceId, conflictTickets);
    const latest = new Map(told.map((row) => [`${row.ticketId}:${row.sessionId}`, toDoorConflict(row)]));
    const results = batch.readings.map((reading): DoorReadingResult => {
      const { code, ticketId, sessionId } = decided.get(reading.readingId)!;
      const conflict = code === 'conflict' && ticketId ? latest.get(`${ticketId}:${sessionId}`) : undefined;
      return {
        readingId: reading.readingId,
        outcome: code === 'conflict' ? 'conflict' : 'recorded',
        code,
        ticketId,
        ...(conflict ? { conflict } : {}),
      };
    });
    return { results, recorded };
  });

  deps.doorMetrics.counted(recorded);
  deps.logger.info(
    { deviceId, eventId, readings: batch.readings.length, recorded: recorded.length, scannedBy },
    'door readings synced',
  );
  return results;
}

const admissionOf = (ticket: Ticket, sessionId: string, usedAt: Date): Admission => ({
  ticketId: ticket.id,
  orderId: ticket.orderId,
  eventId: ticket.eventId,
  sessionId,
  holderName: ticket.holderName,
  ticketType: ticket.ticketType,
  eventTitle: ticket.eventTitle,
  usedAt,
});

/** The conflict between the ticket's admission to the session and this device's: the earlier one is kept. */
function conflictOf(ticket: Ticket, sessionId: string, deviceId: string, readAt: Date): ConflictRow {
  const admission = ticket.admissions[sessionId]!;
  const standing = { device: admission.device ?? UNKNOWN_DEVICE, at: admission.at };
  const reading = { device: deviceId, at: readAt };
  const [kept, other] = readAt < standing.at ? [reading, standing] : [standing, reading];
  return {
    ticketId: ticket.id,
    sessionId,
    holderName: ticket.holderName,
    keptDevice: kept.device,
    keptAt: kept.at,
    otherDevice: other.device,
    otherAt: other.at,
  };
}
