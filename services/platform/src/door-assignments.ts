import type { EventPayload } from '@ticketing/proto';
import type { Knex } from './db.ts';
import type { Logger } from './logger.ts';

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
