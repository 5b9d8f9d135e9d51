import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { findUsableReset, insertReset, useAllResetsOf, useReset } from '../data/password-resets-repository.ts';
import { findUserByEmail, findUserForUpdate, updateUserEndingSessions } from '../data/users-repository.ts';
import { assertUncommonPassword, hashPassword } from './passwords.ts';
import { publishSessionState } from './sessions.ts';
import { messages, type IdentityDeps } from './user.ts';

export const RESET_LIFETIME_MS = 60 * 60 * 1000;

/** At most one reset e-mail per address in this time, however often (and from wherever) it is asked for. */
export const RESET_COOLDOWN_SECONDS = 60;

export const resetCooldownKey = (email: string) => `identity:reset-cooldown:${email.toLowerCase()}`;

export const resetTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

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
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + RESET_LIFETIME_MS);
    await deps.db
      .transaction(async (trx) => {
        await insertReset(trx, { tokenHash: resetTokenHash(token), userId: user.id, expiresAt });
        const payload: EventPayload<'user.password-reset-requested'> = {
          userId: user.id,
          email: user.email,
          name: user.name,
          token,
          expiresAt: expiresAt.toISOString(),
        };
        await deps.outbox.add(trx, 'user.password-reset-requested', user.id, payload);
      })
      .catch(async (error: unknown) => {
        // Nothing was sent: asking again must work at once.
        await deps.redis.del(resetCooldownKey(user.email)).catch(() => 0);
        throw error;
      });
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
  const tokenHash = resetTokenHash(input.token);
  // Hash only for tokens that can work: junk tokens cost no password hashing.
  if (!(await findUsableReset(deps.db, tokenHash))) throw badRequest(messages.invalidResetToken);
  const passwordHash = await hashPassword(input.newPassword);
  const user = await deps.db.transaction(async (trx) => {
    const reset = await useReset(trx, tokenHash);
    if (!reset || !(await findUserForUpdate(trx, reset.userId))) return undefined;
    await useAllResetsOf(trx, reset.userId);
    return updateUserEndingSessions(trx, reset.userId, { passwordHash });
  });
  if (!user) throw badRequest(messages.invalidResetToken);
  await publishSessionState(deps, user.id);
  deps.logger.info({ userId: user.id, sessionVersion: user.sessionVersion }, 'password reset');
}
