import type { Knex } from '@ticketing/platform';
import type { DoorCountsView, EventSession } from '@ticketing/proto';

/** The minutes `perMinute` covers, the current (unfinished) one last. */
const ARRIVAL_MINUTES = 30;

/** The admissions of the event's valid tickets, one row per ticket and session (SQL). */
const ADMISSIONS = `select admission.key as session_id, (admission.value->>'at')::timestamptz as at,
    admission.value->>'device' as device_id
  from tickets, jsonb_each(tickets.admissions) as admission
  where tickets.event_id = :eventId and tickets.status = 'valid'`;

/**
 * How the door of each session of an event is going, read in one snapshot so the numbers agree with each other and
 * `at` (the database's time of that snapshot) orders two readings of it. Every minute of the window is listed, quiet
 * ones with 0; devices are those that admitted a ticket still valid, named after the last staff who read at them.
 * One view per session, by session id.
 */
export function readDoorCounts(
  db: Knex,
  eventId: string,
  sessions: readonly EventSession[],
): Promise<Map<string, DoorCountsView>> {
  return db.transaction(
    async (trx) => {
      const [totals] = (await trx('tickets')
        .where({ event_id: eventId, status: 'valid' })
        .select(trx.raw('count(*)::int as expected'), trx.raw('now() as at'))) as { expected: number; at: Date }[];
      const admitted = await trx.raw<{ rows: { session_id: string; admitted: number }[] }>(
        `select session_id, count(*)::int as admitted from (${ADMISSIONS}) a group by session_id`,
        { eventId },
      );
      const minutes = await trx.raw<{ rows: { session_id: string; minute: Date; count: number }[] }>(
        `select session_id, date_trunc('minute', at) as minute, count(*)::int as count
           from (${ADMISSIONS}) a
          where at >= date_trunc('minute', now()) - make_interval(mins => :window - 1)
          group by 1, 2`,
        { eventId, window: ARRIVAL_MINUTES },
      );
      const window = await trx.raw<{ rows: { minute: Date }[] }>(
        `select generate_series(date_trunc('minute', now()) - make_interval(mins => :window - 1),
                                date_trunc('minute', now()), interval '1 minute') as minute`,
        { window: ARRIVAL_MINUTES },
      );
      const devices = await trx.raw<{
        rows: { session_id: string; device_id: string; staff_name: string; admitted: number }[];
      }>(
        `select d.session_id, d.device_id, coalesce(s.staff_name, '') as staff_name, d.admitted
           from (select session_id, device_id, count(*)::int as admitted
                   from (${ADMISSIONS}) a where device_id is not null
                  group by session_id, device_id) d
           left join lateral (
             select staff_name from scans
              where door_event_id = :eventId and device_id = d.device_id and staff_name is not null
              order by scanned_at desc
              limit 1) s on true
          order by d.admitted desc, d.device_id`,
        { eventId },
      );
      const admittedTo = new Map(admitted.rows.map((row) => [row.session_id, row.admitted]));
      const summary = sessions.map(({ id }) => ({ sessionId: id, admitted: admittedTo.get(id) ?? 0 }));
      const arrivals = new Map(minutes.rows.map((row) => [`${row.session_id}:${row.minute.toISOString()}`, row.count]));
      return new Map(
        sessions.map(({ id }): [string, DoorCountsView] => [
          id,
          {
            eventId,
            sessionId: id,
            admitted: admittedTo.get(id) ?? 0,
            expected: totals!.expected,
            perMinute: window.rows.map(({ minute }) => ({
              minute: minute.toISOString(),
              count: arrivals.get(`${id}:${minute.toISOString()}`) ?? 0,
            })),
            devices: devices.rows
              .filter((row) => row.session_id === id)
              .map((row) => ({ deviceId: row.device_id, staffName: row.staff_name, admitted: row.admitted })),
            sessions: summary,
            at: totals!.at.toISOString(),
          },
        ]),
      );
    },
    { isolationLevel: 'repeatable read', readOnly: true },
  );
}

/** The event a ticket admits, or null for a ticket we do not hold. */
export async function eventOfTicket(db: Knex, ticketId: string): Promise<string | null> {
  const row = (await db('tickets').where({ id: ticketId }).first('event_id')) as { event_id: string } | undefined;
  return row?.event_id ?? null;
}
