import { badRequest, conflict, forbidden, unauthorized, type AppError } from '@ticketing/platform';
import type { UpdateProfileInput } from '@ticketing/proto';
import { useAllLinksOf } from '../data/emailed-links-repository.ts';
import { findOpenSession } from '../data/sessions-repository.ts';
import {
  emailTaken,
  findUserForUpdate,
  takenField,
  updateUser,
  updateUserEndingSessions,
  type UserChanges,
} from '../data/users-repository.ts';
import { issueVerificationCode, startResendCooldown } from './email-verification.ts';
import { endDoorWorkIfRoleLost } from './door-staff.ts';
import { assertUncommonPassword, hashPassword, passwordMatches } from './passwords.ts';
import { issueToken, publishSessionState, sessionUser } from './sessions.ts';
import { eraseAccount } from './erase-account.ts';
import { messages, rolesOf, type IdentityDeps, type Session, type User } from './user.ts';

/** The logged-in user's account; a deleted account or an ended session is a 401. */
export function currentUser(deps: IdentityDeps, session: Session): Promise<User> {
  return sessionUser(deps, session);
}

/**
 * Asks the user to prove it is them before a sensitive change. Wrong passwords count toward the same
 * per-account and per-address budgets as logins, so a stolen session cannot be used to guess the password.
 */
async function confirmPassword(
  deps: IdentityDeps,
  user: User,
  password: string | undefined,
  ip: string,
  refusals: { missing: AppError; wrong: AppError },
): Promise<void> {
  if (!password) throw refusals.missing;
  const attempt = { email: user.email, ip };
  // Waits apply; the challenge does not: a session is already more than a new address proves.
  await deps.throttle.check(attempt);
  if (!(await passwordMatches(user.passwordHash, password))) {
    await deps.throttle.failed(attempt);
    deps.logger.info({ userId: user.id }, 'password confirmation refused');
    throw refusals.wrong;
  }
  await deps.throttle.succeeded(attempt);
}

/** Locks the account for a change; the session must still be current when the lock is held. */
async function lockSessionUser(trx: Parameters<typeof findUserForUpdate>[0], session: Session): Promise<User> {
  const user = await findUserForUpdate(trx, session.userId);
  const open = user && (await findOpenSession(trx, session));
  if (!user || open?.generation !== session.generation) throw unauthorized(messages.sessionInvalid);
  return user;
}

/**
 * Changes the user's own data. The CPF never changes. Name, e-mail and phone need the current password;
 * address and partner company do not. A new e-mail must be free, becomes unverified and gets a new code. It also
 * takes every role away, administrator included (another administrator grants them again), and ends the sessions
 * of an account that held one: a role is never carried over to an address nobody has proved.
 */
export async function updateProfile(
  deps: IdentityDeps,
  session: Session,
  input: UpdateProfileInput,
  ip: string,
): Promise<User> {
  const user = await sessionUser(deps, session);
  if (input.cpf !== undefined && (input.cpf.trim() || null) !== user.cpf) throw badRequest(messages.cpfReadOnly);

  const changes: UserChanges = {};
  if (input.name !== undefined && input.name !== user.name) changes.name = input.name;
  if (input.email !== undefined && input.email !== user.email) changes.email = input.email;
  if (input.phone !== undefined && input.phone !== user.phone) changes.phone = input.phone;
  const sensitive = Object.keys(changes);
  if (input.address !== undefined && input.address !== user.address) changes.address = input.address;
  const partnerCompany = input.partnerCompany === undefined ? undefined : input.partnerCompany?.trim() || null;
  if (partnerCompany !== undefined && partnerCompany !== user.partnerCompany) changes.partnerCompany = partnerCompany;

  if (sensitive.length > 0) {
    await confirmPassword(deps, user, input.currentPassword, ip, {
      missing: forbidden(messages.passwordRequired),
      wrong: unauthorized(messages.wrongPassword),
    });
  }
  if (Object.keys(changes).length === 0) return user;
  if (changes.email !== undefined) {
    if (await emailTaken(deps.db, changes.email, user.id)) throw conflict(messages.emailTaken);
    changes.emailVerified = false;
  }

  const updated = await deps.db
    .transaction(async (trx) => {
      const before = await lockSessionUser(trx, session);
      if (changes.email === undefined) return updateUser(trx, user.id, changes);
      // Roles were given to the proved address, not to whoever holds the account: they go with it.
      const heldRoles = before.isAdmin || before.grantedRoles.length > 0 || rolesOf(deps.settings, before).length > 0;
      const dropRoles: UserChanges = { ...changes, isAdmin: false, grantedRoles: [] };
      const changed = heldRoles
        ? await updateUserEndingSessions(trx, user.id, dropRoles)
        : await updateUser(trx, user.id, dropRoles);
      await endDoorWorkIfRoleLost(deps, trx, before, changed);
      await issueVerificationCode(deps, trx, changed);
      return changed;
    })
    .catch((error: unknown) => {
      throw takenField(error) === 'email' ? conflict(messages.emailTaken) : error;
    });
  if (changes.email !== undefined) {
    await publishSessionState(deps, updated.id);
    await startResendCooldown(deps, updated.email).catch(() => false);
  }
  deps.logger.info(
    { userId: user.id, fields: Object.keys(changes).filter((field) => field !== 'emailVerified') },
    'profile updated',
  );
  return updated;
}

/**
 * Changes the password after checking the current one. Every other session ends; the caller gets a fresh
 * token (as long-lived as the one it used) so this browser stays logged in.
 */
export async function changePassword(
  deps: IdentityDeps,
  session: Session,
  input: { currentPassword: string; newPassword: string },
  ip: string,
): Promise<{ token: string }> {
  const user = await sessionUser(deps, session);
  assertUncommonPassword(input.newPassword);
  await confirmPassword(deps, user, input.currentPassword, ip, {
    missing: unauthorized(messages.wrongPassword),
    wrong: unauthorized(messages.wrongPassword),
  });
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await deps.db.transaction(async (trx) => {
    await lockSessionUser(trx, session);
    await useAllLinksOf(trx, 'password_resets', user.id);
    return updateUserEndingSessions(trx, user.id, { passwordHash });
  });
  await publishSessionState(deps, updated.id);
  deps.logger.info({ userId: user.id }, 'password changed');
  return { token: await issueToken(deps, updated, { remember: session.remembered }) };
}

/**
 * Deletes the account after checking the password: the row is anonymised (orders keep pointing at it),
 * codes and reset links go, every session ends and the other services hear of it.
 */
export async function deleteAccount(
  deps: IdentityDeps,
  session: Session,
  input: { password: string },
  ip: string,
): Promise<void> {
  const user = await sessionUser(deps, session);
  await confirmPassword(deps, user, input.password, ip, {
    missing: unauthorized(messages.wrongDeletePassword),
    wrong: unauthorized(messages.wrongDeletePassword),
  });
  const deleted = await deps.db.transaction(async (trx) =>
    eraseAccount(deps, trx, await lockSessionUser(trx, session)),
  );
  await publishSessionState(deps, deleted.id);
  deps.logger.info({ userId: user.id }, 'account deleted');
}
