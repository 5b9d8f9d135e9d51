import { decodeJwt } from 'jose';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, SERVICE_UNAVAILABLE, type Logger, type Redis } from '@ticketing/platform';
import { TooManyAttempts } from './login-throttle.ts';
import { issueToken, sessionUser } from './sessions.ts';
import type { IdentityDeps, Session } from './user.ts';

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
 * A fresh token for the caller's account, with the roles it holds now, and as long-lived as a new session of the
 * same kind ("lembrar-me" or not): a door left open all day keeps its session. The account is read again, so a
 * token revoked, ended by a password change or of a deleted account renews nothing (401). When the store does not
 * answer the caller is told to retry (503): a 401 would send a working door back to the login page.
 */
export async function renewSession(deps: IdentityDeps, session: Session): Promise<{ token: string; expiresAt: Date }> {
  await deps.renewals(session.userId);
  try {
    const user = await sessionUser(deps, session);
    const token = await issueToken(deps, user, { remember: session.remembered });
    deps.logger.info({ userId: user.id, remembered: session.remembered }, 'session renewed');
    return { token, expiresAt: new Date(decodeJwt(token).exp! * 1000) };
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.logger.error({ err: error, userId: session.userId }, 'session not renewed: store unavailable');
    throw new AppError(503, SERVICE_UNAVAILABLE);
  }
}
