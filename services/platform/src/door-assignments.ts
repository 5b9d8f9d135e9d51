import type { EventPayload } from '@ticketing/proto';
import type { Knex } from './db.ts';
import type { Logger } from './logger.ts';

/**
 * The events each door staffer may work, as identity last announced them: a service that serves the door keeps this
 * table in its own schema, and lists or admits only these.
 */
export async function createDoorAssignmentsTable(db: Knex): Promise<void> {
  await db.schema.createTable('door_assignments', (t) => {
    t.uuid('user_id').notNullable();
    t.uuid('event_id').notNullable();
    t.primary(['user_id', 'event_id']);
  });
}

/**
 * Replaces the events a door staffer may work with `eventIds` (none: they work no door), in the `door_assignments`
 * table a service that serves the door keeps.
 */
export async function replaceDoorAssignments(trx: Knex.Transaction, userId: string, eventIds: string[]): Promise<void> {
  await trx('door_assignments').where({ user_id: userId }).delete();
  if (eventIds.length === 0) return;
  await trx('door_assignments').insert(
    [...new Set(eventIds.map((id) => id.toLowerCase()))].map((eventId) => ({ user_id: userId, event_id: eventId })),
  );
}

/** Identity's announcement of the full set of events a door staffer may work, stored as the door's assignments. */
export async function doorEventsChanged(
  deps: { logger: Logger },
  trx: Knex.Transaction,
  { userId, eventIds }: EventPayload<'user.door-events-changed'>,
): Promise<void> {
  await replaceDoorAssignments(trx, userId, eventIds);
  deps.logger.info({ userId, events: eventIds.length }, 'door assignments changed');
}
