import type { Knex } from '@ticketing/platform';

export interface DoorStaffer {
  id: string;
  name: string;
  email: string;
}

/** Holds the event's door staff until the transaction ends: changes to one event's staff go one at a time. */
export async function lockDoorOfEvent(trx: Knex.Transaction, eventId: string): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('door-staff:' || ?))`, [eventId]);
}

/** The accounts assigned to work an event's door, by name. */
export async function staffOfEvent(db: Knex, eventId: string): Promise<DoorStaffer[]> {
  return (await db('door_assignments')
    .join('users', 'users.id', 'door_assignments.user_id')
    .where({ 'door_assignments.event_id': eventId })
    .whereNull('users.deleted_at')
    .orderBy([{ column: 'users.name' }, { column: 'users.email' }])
    .select('users.id', 'users.name', 'users.email')) as DoorStaffer[];
}

/** The ids of the accounts assigned to an event. */
export async function staffIdsOfEvent(db: Knex, eventId: string): Promise<string[]> {
  const rows = (await db('door_assignments').where({ event_id: eventId }).select('user_id')) as { user_id: string }[];
  return rows.map((row) => row.user_id);
}

/** The events a staffer may work, in a stable order. */
export async function eventsOfStaffer(db: Knex, userId: string): Promise<string[]> {
  const rows = (await db('door_assignments').where({ user_id: userId }).orderBy('event_id').select('event_id')) as {
    event_id: string;
  }[];
  return rows.map((row) => row.event_id);
}

/** Makes `userIds` the event's whole staff; returns the accounts added or removed. */
export async function replaceStaffOfEvent(
  trx: Knex.Transaction,
  eventId: string,
  userIds: string[],
): Promise<string[]> {
  const removed = (await trx('door_assignments')
    .where({ event_id: eventId })
    .whereNotIn('user_id', userIds)
    .delete()
    .returning('user_id')) as { user_id: string }[];
  const added =
    userIds.length === 0
      ? []
      : ((await trx('door_assignments')
          .insert(userIds.map((userId) => ({ user_id: userId, event_id: eventId })))
          .onConflict(['user_id', 'event_id'])
          .ignore()
          .returning('user_id')) as { user_id: string }[]);
  return [...removed, ...added].map((row) => row.user_id);
}

/** Takes every event away from a staffer; whether there was any. */
export async function clearEventsOfStaffer(trx: Knex.Transaction, userId: string): Promise<boolean> {
  return (await trx('door_assignments').where({ user_id: userId }).delete()) > 0;
}
