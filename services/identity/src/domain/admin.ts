import { AppError, notFound } from '@ticketing/platform';
import type { EventPayload, GrantableRole } from '@ticketing/proto';
import {
  findUserByEmail,
  findUserForUpdate,
  insertUserIfMissing,
  promoteToAdmin,
  setGrantedRoles,
} from '../data/users-repository.ts';
import { endDoorWorkIfRoleLost } from './door-staff.ts';
import { hashPassword } from './passwords.ts';
import { publishSessionState, sessionUser } from './sessions.ts';
import { messages, type IdentityDeps, type Session, type User } from './user.ts';

export const ADMIN_NAME = 'Administrador';

/**
 * Creates the configured administrator account (verified) when no account has its e-mail. An existing
 * account with that e-mail is left as it is: nobody becomes administrator by registering the address first.
 */
export async function ensureAdminAccount(deps: IdentityDeps): Promise<void> {
  const { adminEmail, adminPassword } = deps.settings;
  if (await findUserByEmail(deps.db, adminEmail)) return;
  const passwordHash = await hashPassword(adminPassword);
  const created = await deps.db.transaction(async (trx) => {
    const user = await insertUserIfMissing(trx, {
      email: adminEmail,
      emailVerified: true,
      passwordHash,
      name: ADMIN_NAME,
      cpf: null,
      phone: null,
      birthDate: null,
      address: null,
      partnerCompany: null,
      isAdmin: true,
    });
    if (user) {
      const payload: EventPayload<'user.registered'> = { userId: user.id, email: user.email, name: user.name };
      await deps.outbox.add(trx, 'user.registered', user.id, payload);
    }
    return user;
  });
  if (created) deps.logger.info({ userId: created.id }, 'admin account created');
}

/**
 * Development tool: makes any account an administrator. Only routed when the configuration turns development
 * tools on; the new role shows in the tokens issued from the next login, once the account's e-mail is verified.
 */
export async function makeAdmin(deps: IdentityDeps, session: Session, userId: string): Promise<User> {
  await sessionUser(deps, session);
  const user = await deps.db.transaction((trx) => promoteToAdmin(trx, userId));
  if (!user) throw notFound(messages.userNotFound);
  await publishSessionState(deps, user.id);
  deps.logger.info({ userId: user.id, by: session.userId }, 'user made admin');
  return user;
}

/**
 * An administrator sets the roles an account holds beyond the configured ones, only on an account whose e-mail is
 * verified (422 otherwise; taking roles away always works). A new role shows in the account's next token (a login or
 * a renewal); a role taken away stops counting in every token at once (the sessions go on), and the door role taken
 * away ends the staffer's event assignments.
 */
export async function grantRoles(
  deps: IdentityDeps,
  session: Session,
  input: { email: string; roles: GrantableRole[] },
): Promise<User> {
  await sessionUser(deps, session);
  const target = await findUserByEmail(deps.db, input.email);
  if (!target) throw notFound(messages.userNotFound);
  const roles = [...new Set(input.roles)];
  const user = await deps.db.transaction(async (trx) => {
    const before = await findUserForUpdate(trx, target.id);
    if (!before) throw notFound(messages.userNotFound);
    const gains = roles.some((role) => !before.grantedRoles.includes(role));
    if (gains && !before.emailVerified) throw new AppError(422, messages.rolesNeedVerifiedEmail);
    const after = await setGrantedRoles(trx, before, roles);
    await endDoorWorkIfRoleLost(deps, trx, before, after);
    return after;
  });
  await publishSessionState(deps, user.id);
  deps.logger.info({ userId: user.id, roles, by: session.userId }, 'roles granted');
  return user;
}
