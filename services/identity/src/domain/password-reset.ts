import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest } from '@ticketing/platform';
import { findUsableLink, useAllLinksOf, useLink } from '../data/emailed-links-repository.ts';
import { findUserByEmail, findUserForUpdate, updateUserEndingSessions } from '../data/users-repository.ts';
import { assertUncommonPassword, hashPassword } from './passwords.ts';
import { emailLink, linkTokenHash, type LinkKind } from './emailed-links.ts';
import { publishSessionState } from './sessions.ts';
import { messages, type IdentityDeps } from './user.ts';

/** At most one reset e-mail per address in this time, however often (and from wherever) it is asked for. */
export const RESET_COOLDOWN_SECONDS = 60;

export const resetCooldownKey = (email: string) => `identity:reset-cooldown:${email.toLowerCase()}`;

const PASSWORD_RESET: LinkKind = {
  table: 'password_resets',
  event: 'user.password-reset-requested',
  lifetimeMs: 60 * 60 * 1000,
  cooldownKey: resetCooldownKey,
};

/**
 * Sends a single-use link to reset the password, when the account exists and no link went to it in the last
 * minute (nobody floods a mailbox through this form). The answer is the same either way and never comes
 * sooner than the configured minimum, so neither its text nor its timing tells.
 */
export async function requestPasswordReset(deps: IdentityDeps, input: { email: string }): Promise<void> {
  const started = Date.now();
  try {
    const user = await findUserByEmail(deps.db, input.email);
    if (!user) return;
    const fresh = await deps.redis.set(resetCooldownKey(user.email), '1', 'EX', RESET_COOLDOWN_SECONDS, 'NX');
    if (fresh !== 'OK') {
      deps.logger.info({ userId: user.id }, 'password reset not sent again so soon');
      return;
    }
    await emailLink(deps, PASSWORD_RESET, user);
    deps.logger.info({ userId: user.id }, 'password reset requested');
  } finally {
    await sleep(Math.max(0, deps.settings.forgotPasswordMinMs - (Date.now() - started)));
  }
}

/**
 * Sets a new password with a reset token: valid, unused and unexpired, used once. A common password is refused
 * before the token is spent. Every session of the account ends, and every other reset link with them.
 */
export async function resetPassword(deps: IdentityDeps, input: { token: string; newPassword: string }): Promise<void> {
  assertUncommonPassword(input.newPassword);
  const tokenHash = linkTokenHash(input.token);
  // Hash only for tokens that can work: junk tokens cost no password hashing.
  if (!(await findUsableLink(deps.db, PASSWORD_RESET.table, tokenHash))) throw badRequest(messages.invalidResetToken);
  const passwordHash = await hashPassword(input.newPassword);
  const user = await deps.db.transaction(async (trx) => {
    const reset = await useLink(trx, PASSWORD_RESET.table, tokenHash);
    if (!reset || !(await findUserForUpdate(trx, reset.userId))) return undefined;
    await useAllLinksOf(trx, PASSWORD_RESET.table, reset.userId);
    return updateUserEndingSessions(trx, reset.userId, { passwordHash });
  });
  if (!user) throw badRequest(messages.invalidResetToken);
  await publishSessionState(deps, user.id);
  deps.logger.info({ userId: user.id }, 'password reset');
}
