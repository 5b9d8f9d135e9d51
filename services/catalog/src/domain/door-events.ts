import type { AuthUser, Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { replaceDoorAssignments } from '../data/door-assignments-repository.ts';
import { listForDoor } from '../data/events-repository.ts';
import type { CatalogDeps, CatalogEvent } from './catalog-event.ts';

/**
 * The events a door can be set to: today's first (an event that has started still needs its door), then upcoming
 * ones. Unlisted events are included: their guests arrive at a door like any other. Administrators see every one;
 * door staff only those an administrator assigned them (an event weeks away only if the admin chose so).
 */
export function listDoorEvents(
  deps: Pick<CatalogDeps, 'db'>,
  user: AuthUser,
): Promise<{ event: CatalogEvent; today: boolean }[]> {
  return listForDoor(deps.db, user.isAdmin ? undefined : user.id);
}

/** Identity's announcement of the full set of events a door staffer may work. */
export async function doorEventsChanged(
  deps: Pick<CatalogDeps, 'logger'>,
  trx: Knex.Transaction,
  { userId, eventIds }: EventPayload<'user.door-events-changed'>,
): Promise<void> {
  await replaceDoorAssignments(trx, userId, eventIds);
  deps.logger.info({ userId, events: eventIds.length }, 'door assignments changed');
}
