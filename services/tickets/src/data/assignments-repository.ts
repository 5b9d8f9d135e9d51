import type { Knex } from '@ticketing/platform';

export async function isAssigned(db: Knex, userId: string, eventId: string): Promise<boolean> {
  const row = await db('door_assignments')
    .first('event_id')
    .where({ user_id: userId, event_id: eventId.toLowerCase() });
  return row !== undefined;
}
