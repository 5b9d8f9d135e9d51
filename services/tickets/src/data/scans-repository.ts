import type { Knex } from '@ticketing/platform';
import type { ScanCode } from '@ticketing/proto';

/** Records readings at the door, admitted or refused, in one statement. */
export async function insertScans(
  trx: Knex.Transaction,
  scans: { ticketId: string | null; scannedBy: string; code: ScanCode; doorEventId: string | null }[],
): Promise<void> {
  await trx('scans').insert(
    scans.map((scan) => ({
      ticket_id: scan.ticketId,
      scanned_by: scan.scannedBy,
      code: scan.code,
      door_event_id: scan.doorEventId,
    })),
  );
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
