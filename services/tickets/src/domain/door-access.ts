import { AuthUnavailable, forbidden, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';
import { isAssigned } from '../data/assignments-repository.ts';
import type { TicketsDeps } from './deps.ts';

/**
 * Whether `user` may work the door of `eventId`: administrators every event, door staff the events an administrator
 * assigned them (identity announces each staffer's full set; events far ahead are only there if an admin chose so).
 */
export async function mayWorkDoor(deps: Pick<TicketsDeps, 'db'>, user: AuthUser, eventId: string): Promise<boolean> {
  return user.isAdmin || (user.roles.includes('doorStaff') && (await isAssigned(deps.db, user.id, eventId)));
}

/** Refuses (403) a door staffer who is not assigned to `eventId`: nothing of the event is read or recorded. */
export async function assertMayWorkDoor(deps: Pick<TicketsDeps, 'db'>, user: AuthUser, eventId: string): Promise<void> {
  if (!(await mayWorkDoor(deps, user, eventId))) throw forbidden(doorMessages.eventNotAssigned);
}

/**
 * Whether a live stream opened with `token` may go on: the token still good (its session not ended, its role not
 * dropped) and the event still the staffer's. While identity or the database cannot answer, it goes on.
 */
export async function mayKeepWatching(
  deps: Pick<TicketsDeps, 'db'>,
  verifyToken: TokenVerifier,
  token: string,
  eventId: string,
): Promise<boolean> {
  let user: AuthUser;
  try {
    user = await verifyToken(token);
  } catch (error) {
    return error instanceof AuthUnavailable;
  }
  return mayWorkDoor(deps, user, eventId).catch(() => true);
}
