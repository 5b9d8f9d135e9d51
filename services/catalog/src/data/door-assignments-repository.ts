import type { Knex } from '@ticketing/platform';

/** Replaces the events a door staffer may work with `eventIds` (none: they work no door). */
export async function replaceDoorAssignments(trx: Knex.Transaction, userId: string, eventIds: string[]): Promise<void> {
  await trx('door_assignments').where({ user_id: userId }).delete();
  if (eventIds.length === 0) return;
  await trx('door_assignments').insert(
    [...new Set(eventIds.map((id) => id.toLowerCase()))].map((eventId) => ({ user_id: userId, event_id: eventId })),
  );
}
