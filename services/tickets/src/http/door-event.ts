import { parseInput, type AuthUser } from '@ticketing/platform';
import { doorEventIdParam } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { assertMayWorkDoor } from '../domain/door-access.ts';

/** The event a door request names, once the caller may work its door (403 otherwise). */
export async function doorEventOf(deps: Pick<TicketsDeps, 'db'>, user: AuthUser, raw: unknown): Promise<string> {
  const eventId = parseInput(doorEventIdParam, raw);
  await assertMayWorkDoor(deps, user, eventId);
  return eventId;
}
