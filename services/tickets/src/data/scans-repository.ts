import type { Knex } from '@ticketing/platform';
import type { ScanCode } from '@ticketing/proto';

export interface NewScan {
  ticketId: string | null;
  scannedBy: string;
  code: ScanCode;
  doorEventId: string | null;
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
): Promise<Map<string, { ticketId: string | null; code: ScanCode }>> {
  const rows = (await trx('scans').select('reading_id', 'ticket_id', 'code').whereIn('reading_id', readingIds)) as {
    reading_id: string;
    ticket_id: string | null;
    code: ScanCode;
  }[];
  return new Map(rows.map((row) => [row.reading_id, { ticketId: row.ticket_id, code: row.code }]));
}

/** Records that a check-in was undone; returns when. */
export async function insertReset(
  trx: Knex.Transaction,
  reset: { ticketId: string; resetBy: string; previousUsedAt: Date; previousUsedBy: string },
): Promise<Date> {
  const [row] = (await trx('resets')
    .insert({
      ticket_id: reset.ticketId,
      reset_by: reset.resetBy,
      previous_used_at: reset.previousUsedAt,
      previous_used_by: reset.previousUsedBy,
    })
    .returning('reset_at')) as { reset_at: Date }[];
  return row!.reset_at;
}
