import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests, type AuthUser, type Logger, type Redis } from '@ticketing/platform';
import { messages } from '../domain/order.ts';

const KEY_PREFIX = 'orders:purchases';

/**
 * Purchases per account, never per address: a sales rush's crowd shares its carriers' and venues' addresses, and a
 * purchase already needs a session, so only that account's holder can spend its budget. Kept in Redis so every
 * replica shares the count; while Redis is unreachable a per-replica memory count of the same size takes over.
 * Runs after `requireUser`.
 */
export function purchaseRateLimit(redis: Redis, points: number, windowSeconds: number, logger: Logger): Middleware {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: KEY_PREFIX,
    points,
    duration: windowSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: KEY_PREFIX, points, duration: windowSeconds }),
  });
  return async (ctx, next) => {
    const userId = (ctx.state.user as AuthUser).id;
    try {
      await limiter.consume(userId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Not a verdict but a failure of both stores: better a missed count than no sales.
        logger.error({ err: rejection, userId }, 'purchase limit not counted');
        return next();
      }
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      logger.warn({ userId }, 'purchases throttled');
      throw tooManyRequests(messages.tooManyOrders);
    }
    return next();
  };
}
