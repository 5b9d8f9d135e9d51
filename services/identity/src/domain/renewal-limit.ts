import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger, Redis } from '@ticketing/platform';
import { TooManyAttempts } from './login-throttle.ts';

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
