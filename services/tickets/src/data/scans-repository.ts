import type { Knex } from '@ticketing/platform';
import type { ScanCode } from '@ticketing/proto';
import type { Admissions } from './tickets-repository.ts';

export interface NewScan {
  ticketId: string | null;
  scannedBy: string;
  code: ScanCode;
  doorEventId: string | null;
  /** The session it was read for; null when it named no ticket of ours. */
  sessionId: string | null;
  deviceId: string | null;
  /** Who was at the device, as the token named them. */
  staffName: string | null;
  /** Set for a reading the device decided by itself and sent later, with when it was read. */
  readingId?: string;
  readAt?: Date;
}

/**
 * Records readings at the door, admitted or refused, in one statement. Column by column, like the door's conflicts
 * and a new ticket: alike in shape only, each names its own table's columns.
 */
export async function insertScans(trx: Knex.Transaction, scans: NewScan[]): Promise<void> {
  if (scans.length === 0) return;
  await trx('scans').insert(
    scans.map((scan) => ({
      ticket_id: scan.ticketId,
      scanned_by: scan.scannedBy,
      code: scan.code,
      door_event_id: scan.doorEventId,
      session_id: scan.sessionId,
      device_id: scan.deviceId,
      staff_name: scan.staffName,
      reading_id: scan.readingId ?? null,
      read_at: scan.readAt ?? null,
    })),
  );
}

/** The readings already recorded among `readingIds`, by reading id. */
export async function findReadings(
  trx: Knex.Transaction,
  readingIds: string[],
): Promise<Map<string, { ticketId: string | null; sessionId: string | null; code: ScanCode }>> {
  const rows = (await trx('scans')
    .select('reading_id', 'ticket_id', 'session_id', 'code')
    .whereIn('reading_id', readingIds)) as {
    reading_id: string;
    ticket_id: string | null;
    session_id: string | null;
    code: ScanCode;
  }[];
  return new Map(
    rows.map((row) => [row.reading_id, { ticketId: row.ticket_id, sessionId: row.session_id, code: row.code }]),
  );
}

/** Records the admissions a reset undid, one row per session; returns when. */
export async function insertResets(
  trx: Knex.Transaction,
  ticketId: string,
  resetBy: string,
  undone: Admissions,
): Promise<Date> {
  const rows = (await trx('resets')
    .insert(
      Object.entries(undone).map(([sessionId, admission]) => ({
        ticket_id: ticketId,
        session_id: sessionId,
        reset_by: resetBy,
        previous_used_at: admission.at,
        previous_used_by: admission.by,
      })),
    )
    .returning('reset_at')) as { reset_at: Date }[];
  return rows[0]!.reset_at;
}
