import type { Knex } from '@ticketing/platform';
import type { DoorCountsView } from '@ticketing/proto';

/** The minutes `perMinute` covers, the current (unfinished) one last. */
const ARRIVAL_MINUTES = 30;

/**
 * How the door of one event is going, read in one snapshot so the numbers agree with each other and `at` (the
 * database's time of that snapshot) orders two readings of it. Every minute of the window is listed, quiet ones
 * with 0; devices are those that admitted a ticket still valid, named after the last staff who read at them.
 */
export function readDoorCounts(db: Knex, eventId: string): Promise<DoorCountsView> {
  return db.transaction(
    async (trx) => {
      const [totals] = (await trx('tickets')
        .where({ event_id: eventId, status: 'valid' })
        .select(
          trx.raw('count(*)::int as expected'),
          trx.raw('count(used_at)::int as admitted'),
          trx.raw('now() as at'),
        )) as { expected: number; admitted: number; at: Date }[];
      const minutes = await trx.raw<{ rows: { minute: Date; count: number }[] }>(
        `with arrivals as (
           select date_trunc('minute', used_at) as minute, count(*)::int as count
             from tickets
            where event_id = :eventId and status = 'valid'
              and used_at >= date_trunc('minute', now()) - make_interval(mins => :window - 1)
            group by 1
         )
         select m.minute, coalesce(a.count, 0) as count
           from generate_series(date_trunc('minute', now()) - make_interval(mins => :window - 1),
                                date_trunc('minute', now()), interval '1 minute') as m(minute)
           left join arrivals a using (minute)
          order by m.minute`,
        { eventId, window: ARRIVAL_MINUTES },
      );
      const devices = await trx.raw<{ rows: { device_id: string; staff_name: string; admitted: number }[] }>(
        `select d.device_id, coalesce(s.staff_name, '') as staff_name, d.admitted
           from (select used_device as device_id, count(*)::int as admitted
                   from tickets
                  where event_id = :eventId and status = 'valid' and used_at is not null and used_device is not null
                  group by used_device) d
           left join lateral (
             select staff_name from scans
              where door_event_id = :eventId and device_id = d.device_id and staff_name is not null
              order by scanned_at desc
              limit 1) s on true
          order by d.admitted desc, d.device_id`,
        { eventId },
      );
      return {
        eventId,
        admitted: totals!.admitted,
        expected: totals!.expected,
        perMinute: minutes.rows.map((row) => ({ minute: row.minute.toISOString(), count: row.count })),
        devices: devices.rows.map((row) => ({
          deviceId: row.device_id,
          staffName: row.staff_name,
          admitted: row.admitted,
        })),
        at: totals!.at.toISOString(),
      };
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** The event a ticket admits, or null for a ticket we do not hold. */
export async function eventOfTicket(db: Knex, ticketId: string): Promise<string | null> {
  const row = (await db('tickets').where({ id: ticketId }).first('event_id')) as { event_id: string } | undefined;
  return row?.event_id ?? null;
}
