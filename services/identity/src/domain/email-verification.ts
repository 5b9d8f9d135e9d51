import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError, badRequest, tooManyRequests, type Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { findUserByEmail, findUserById, updateUser } from '../data/users-repository.ts';
import {
  consumeCode,
  countWrongAttempt,
  pendingCodeForUpdate,
  replaceCode,
  wrongAttemptsToday,
} from '../data/verification-codes-repository.ts';
import { issueToken, publishSessionState, sessionUser } from './sessions.ts';
import { messages, type IdentityDeps, type Session, type User } from './user.ts';

export const CODE_LIFETIME_MS = 15 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 30;

/** The Redis key that holds an address's resend cooldown. */
export const resendCooldownKey = (email: string) => `identity:resend-cooldown:${email.toLowerCase()}`;

const codeHash = (secret: string, userId: string, code: string) =>
  createHmac('sha256', secret).update(`${userId}:${code}`).digest();

/**
 * Makes a new 6-digit code for the user's current e-mail inside the caller's transaction: only its hash is
 * stored, the codes sent before stop working, and the code itself travels to the mail service in the event.
 */
export async function issueVerificationCode(
  deps: Pick<IdentityDeps, 'outbox' | 'settings'>,
  trx: Knex.Transaction,
  user: Pick<User, 'id' | 'email' | 'name'>,
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + CODE_LIFETIME_MS);
  await replaceCode(trx, {
    userId: user.id,
    email: user.email,
    codeHash: codeHash(deps.settings.verificationSecret, user.id, code).toString('hex'),
    expiresAt,
  });
  const payload: EventPayload<'user.verification-code-issued'> = {
    userId: user.id,
    email: user.email,
    name: user.name,
    code,
    expiresAt: expiresAt.toISOString(),
  };
  await deps.outbox.add(trx, 'user.verification-code-issued', user.id, payload);
}

/**
 * Starts an address's 30-second resend cooldown. False when it is already running. Called after a code is
 * sent, and before one is resent, whether or not the address has an account.
 */
export async function startResendCooldown(deps: Pick<IdentityDeps, 'redis'>, email: string): Promise<boolean> {
  const set = await deps.redis.set(resendCooldownKey(email), '1', 'EX', RESEND_COOLDOWN_SECONDS, 'NX');
  return set === 'OK';
}

type Outcome = { verified: User } | { refused: AppError };

/**
 * Checks a code sent to `email`. Right: the address is verified and a session opens. Wrong or expired: 400,
 * and after five wrong tries the code is locked (429) until a new one is requested. New codes do not bring new
 * guesses without end: past the day's budget of wrong codes the account waits until the next day.
 */
export async function verifyEmail(
  deps: IdentityDeps,
  input: { email: string; code: string },
): Promise<{ token: string; user: User }> {
  const user = await findUserByEmail(deps.db, input.email);
  if (!user) throw badRequest(messages.invalidCode);
  const outcome = await deps.db.transaction(async (trx): Promise<Outcome> => {
    const pending = await pendingCodeForUpdate(trx, user.id);
    if (!pending || pending.email !== user.email || pending.expiresAt.getTime() <= Date.now()) {
      return { refused: badRequest(messages.invalidCode) };
    }
    if (pending.attempts >= MAX_CODE_ATTEMPTS) return { refused: tooManyRequests(messages.codeAttemptsExceeded) };
    if ((await wrongAttemptsToday(trx, user.id)) >= deps.settings.maxWrongCodesPerDay) {
      return { refused: tooManyRequests(messages.codeAttemptsToday) };
    }
    const expected = Buffer.from(pending.codeHash, 'hex');
    if (!timingSafeEqual(expected, codeHash(deps.settings.verificationSecret, user.id, input.code))) {
      // The count must commit even though the answer is a refusal.
      const attempts = await countWrongAttempt(trx, pending.id);
      deps.logger.info({ userId: user.id, attempts }, 'wrong verification code');
      return { refused: badRequest(messages.invalidCode) };
    }
    await consumeCode(trx, pending.id);
    return { verified: await updateUser(trx, user.id, { emailVerified: true }) };
  });
  if ('refused' in outcome) throw outcome.refused;
  // A verified address may bring roles (a listed door or courtesy address): every verifier learns them now.
  await publishSessionState(deps, user.id);
  deps.logger.info({ userId: user.id }, 'email verified');
  return { token: await issueToken(deps, outcome.verified), user: outcome.verified };
}

/** Sends a new code to an address not yet verified. The answer is the same whether or not it has an account. */
export async function resendCode(deps: IdentityDeps, input: { email: string }): Promise<void> {
  if (!(await startResendCooldown(deps, input.email))) throw tooManyRequests(messages.resendTooSoon);
  const user = await findUserByEmail(deps.db, input.email);
  if (user && !user.emailVerified) await sendNewCode(deps, user.id);
}

/** The logged-in user asks for a new code for their own address (same cooldown, same answer). */
export async function resendVerification(deps: IdentityDeps, session: Session): Promise<void> {
  const user = await sessionUser(deps, session);
  if (!(await startResendCooldown(deps, user.email))) throw tooManyRequests(messages.resendTooSoon);
  if (!user.emailVerified) await sendNewCode(deps, user.id);
}

async function sendNewCode(deps: IdentityDeps, userId: string): Promise<void> {
  try {
    await deps.db.transaction(async (trx) => {
      // Read again in the transaction: the address may have been verified or changed meanwhile.
      const user = await findUserById(trx, userId);
      if (user && !user.emailVerified) await issueVerificationCode(deps, trx, user);
    });
  } catch (error) {
    // Nothing was sent: the user may try again at once.
    const user = await findUserById(deps.db, userId).catch(() => undefined);
    if (user) await deps.redis.del(resendCooldownKey(user.email)).catch(() => 0);
    throw error;
  }
  deps.logger.info({ userId }, 'verification code issued');
}
