import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests, type AuthUser, type Logger, type Redis } from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';

export interface StafferLimitOptions {
  /** The budget's name: searches and readings are counted apart. */
  name: string;
  redis: Redis;
  perMinute: number;
  message: string;
  logger: Logger;
}

/**
 * A budget per signed-in staffer (not per address: a venue's Wi-Fi puts every door phone behind one), shared by
 * every verifier replica through Redis. While Redis is unreachable an in-memory budget of the same size stands in
 * on each replica. Runs after the role check, which set `ctx.state.user`.
 */
function stafferLimit({ name, redis, perMinute, message, logger }: StafferLimitOptions): Middleware {
  const keyPrefix = `door-${name}-limit`;
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: perMinute,
    duration: 60,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: perMinute, duration: 60 }),
  });
  return async (ctx, next) => {
    const user = ctx.state.user as AuthUser;
    try {
      await limiter.consume(user.id);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        logger.error({ err: rejection }, 'door rate limiter failed; request let through');
        return next();
      }
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      logger.warn({ userId: user.id, budget: name }, 'door budget spent');
      throw tooManyRequests(message);
    }
    return next();
  };
}

/** The door's budgets: look-ups, and readings of every kind (scans, look-up admissions, synced batches). */
export interface DoorLimits {
  searches: Middleware;
  readings: Middleware;
}

export function doorLimits({
  redis,
  logger,
  searchesPerMinute,
  readingsPerMinute,
}: {
  redis: Redis;
  logger: Logger;
  searchesPerMinute: number;
  readingsPerMinute: number;
}): DoorLimits {
  const budget = (name: string, perMinute: number, message: string) =>
    stafferLimit({ name, redis, perMinute, message, logger });
  return {
    searches: budget('searches', searchesPerMinute, doorMessages.tooManySearches),
    readings: budget('readings', readingsPerMinute, doorMessages.tooManyReadings),
  };
}
