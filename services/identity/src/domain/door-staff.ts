import { AppError, type Knex } from '@ticketing/platform';
import { notVerifiedAccountsMessage, type EventPayload } from '@ticketing/proto';
import {
  clearEventsOfStaffer,
  eventsOfStaffer,
  lockDoorOfEvent,
  replaceStaffOfEvent,
  staffIdsOfEvent,
  staffOfEvent,
  type DoorStaffer,
} from '../data/door-assignments-repository.ts';
import { lockUsers, setGrantedRoles } from '../data/users-repository.ts';
import { publishSessionState, sessionUser } from './sessions.ts';
import { rolesOf, type IdentityDeps, type Session, type User } from './user.ts';

/** Tells tickets and catalog the full set of events a staffer may work now. */
async function publishDoorEvents(deps: Pick<IdentityDeps, 'outbox'>, trx: Knex.Transaction, userId: string) {
  const payload: EventPayload<'user.door-events-changed'> = { userId, eventIds: await eventsOfStaffer(trx, userId) };
  await deps.outbox.add(trx, 'user.door-events-changed', userId, payload);
}

/** Who works an event's door. */
export async function doorStaffOf(deps: IdentityDeps, session: Session, eventId: string): Promise<DoorStaffer[]> {
  await sessionUser(deps, session);
  return staffOfEvent(deps.db, eventId);
}

/**
 * Makes the accounts of `emails` the whole staff of an event's door. Every address must be a verified account,
 * or nothing changes (422 naming the others). Whoever is assigned and lacks the door role is granted it; each
 * staffer added or removed has their full set of events published.
 */
export async function assignDoorStaff(
  deps: IdentityDeps,
  session: Session,
  input: { eventId: string; emails: string[] },
): Promise<DoorStaffer[]> {
  await sessionUser(deps, session);
  const emails = [...new Set(input.emails)];
  const granted = await deps.db.transaction(async (trx) => {
    await lockDoorOfEvent(trx, input.eventId);
    const accounts = await lockUsers(trx, { ids: await staffIdsOfEvent(trx, input.eventId), emails });
    const staff = accounts.filter((user) => user.emailVerified && !user.deletedAt && emails.includes(user.email));
    const missing = emails.filter((email) => !staff.some((user) => user.email === email));
    if (missing.length > 0) throw new AppError(422, notVerifiedAccountsMessage(missing));
    const changed = await replaceStaffOfEvent(
      trx,
      input.eventId,
      staff.map((user) => user.id),
    );
    for (const userId of changed) await publishDoorEvents(deps, trx, userId);
    const lacking = staff.filter((user) => !rolesOf(deps.settings, user).includes('doorStaff'));
    for (const user of lacking) await setGrantedRoles(trx, user, [...user.grantedRoles, 'doorStaff']);
    return lacking.map((user) => user.id);
  });
  for (const userId of granted) await publishSessionState(deps, userId);
  deps.logger.info(
    { eventId: input.eventId, staff: emails.length, granted, by: session.userId },
    'door staff assigned',
  );
  return staffOfEvent(deps.db, input.eventId);
}

/**
 * Inside the transaction that changed an account (locked): once it no longer holds the door role, it works no
 * event's door any more, and tickets and catalog hear so (an empty set).
 */
export async function endDoorWorkIfRoleLost(
  deps: Pick<IdentityDeps, 'outbox' | 'settings'>,
  trx: Knex.Transaction,
  before: User,
  after: Pick<User, 'id' | 'isAdmin' | 'email' | 'emailVerified' | 'grantedRoles' | 'deletedAt'>,
): Promise<void> {
  const held = rolesOf(deps.settings, before).includes('doorStaff');
  const holds = after.deletedAt === null && rolesOf(deps.settings, after).includes('doorStaff');
  if (holds) return;
  const hadEvents = await clearEventsOfStaffer(trx, before.id);
  if (held || hadEvents) await publishDoorEvents(deps, trx, before.id);
}
