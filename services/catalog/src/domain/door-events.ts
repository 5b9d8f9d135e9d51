import type { AuthUser } from '@ticketing/platform';
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
