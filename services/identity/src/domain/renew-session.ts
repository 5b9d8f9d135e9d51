import { decodeJwt } from 'jose';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, SERVICE_UNAVAILABLE, unauthorized, type Logger, type Redis } from '@ticketing/platform';
import { advanceSession, findOpenSession, type SessionRecord } from '../data/sessions-repository.ts';
import { findUserById } from '../data/users-repository.ts';
import { TooManyAttempts } from './login-throttle.ts';
import { publishSessionState, sessionMaxAge, signSessionToken } from './sessions.ts';
import { messages, rolesOf, type IdentityDeps, type Session } from './user.ts';

/** Counts renewals per account: throws `TooManyAttempts` once the account has used up its budget. */
export type RenewalLimit = (userId: string) => Promise<void>;

const RENEWAL_LIMIT_PREFIX = 'identity:renewals';
const RENEWAL_WINDOW_SECONDS = 3600;

/**
 * Per account, never per address: the staff of a venue renew from one Wi-Fi, and a renewal already needs a valid
 * token, so only a token's holder can spend its account's budget. While Redis is unreachable a per-replica memory
 * count of the same size takes over.
 */
export function createRenewalLimit(redis: Redis, perHour: number, logger: Logger): RenewalLimit {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: RENEWAL_LIMIT_PREFIX,
    points: perHour,
    duration: RENEWAL_WINDOW_SECONDS,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({
      keyPrefix: RENEWAL_LIMIT_PREFIX,
      points: perHour,
      duration: RENEWAL_WINDOW_SECONDS,
    }),
  });
  return async (userId) => {
    try {
      await limiter.consume(userId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Not a verdict but a failure of both stores: better a missed count than a door logged out.
        logger.error({ err: rejection, userId }, 'renewal limit not counted');
        return;
      }
      logger.warn({ userId }, 'session renewal throttled');
      throw new TooManyAttempts(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
  };
}

/**
 * Two tabs (or a retried request) renewing the same token at once: the one that comes second, within this long of
 * the first, gets a token of the generation the first made instead of a refusal. Any other superseded token renews
 * nothing.
 */
const CONCURRENT_RENEWAL_MS = 10_000;

const renewedJustNow = (current: SessionRecord, session: Session) =>
  current.generation === session.generation + 1 && Date.now() - current.renewedAt.getTime() < CONCURRENT_RENEWAL_MS;

/**
 * The next token of the caller's session, with the roles the account holds now; the token presented is superseded
 * and refused from then on. The session never outlasts its absolute end (a door shift, a remembered week), which
 * shortens to a door shift when the account became door staff. The database judges the session: ended, superseded
 * or of a deleted account renews nothing (401) and spends none of the account's renewals. When the store does not
 * answer the caller is told to retry (503): a 401 would send a working door back to the login page.
 */
export async function renewSession(deps: IdentityDeps, session: Session): Promise<{ token: string; expiresAt: Date }> {
  const { user, current } = await storeAnswer(deps, session, async () => ({
    user: await findUserById(deps.db, session.userId),
    current: await findOpenSession(deps.db, session),
  }));
  const renewable = current && (current.generation === session.generation || renewedJustNow(current, session));
  if (!user || !renewable) throw unauthorized(messages.sessionInvalid);
  await deps.renewals(session.userId);
  return storeAnswer(deps, session, async () => {
    const maxAge = sessionMaxAge(deps.settings, rolesOf(deps.settings, user), current.remembered);
    const advanced = await deps.db.transaction((trx) => advanceSession(trx, session, maxAge));
    // Lost the race to a renewal of the same token: the session is where that one left it.
    const renewed = advanced ?? (await findOpenSession(deps.db, session));
    if (!renewed || !(advanced || renewedJustNow(renewed, session))) throw unauthorized(messages.sessionInvalid);
    await publishSessionState(deps, user.id);
    const token = await signSessionToken(deps, user, renewed);
    deps.logger.info({ userId: user.id, sessionId: renewed.id, generation: renewed.generation }, 'session renewed');
    return { token, expiresAt: new Date(decodeJwt(token).exp! * 1000) };
  });
}

/** Runs `work` against the store; a store that does not answer is a 503, never a refusal. */
async function storeAnswer<T>(deps: IdentityDeps, session: Session, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.logger.error({ err: error, userId: session.userId }, 'session not renewed: store unavailable');
    throw new AppError(503, SERVICE_UNAVAILABLE);
  }
}
