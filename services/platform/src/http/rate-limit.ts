import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AuthUser } from '../auth.ts';
import { tooManyRequests } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Redis } from '../redis.ts';

/** Whom a request counts against; undefined when it is not counted. */
export type RateLimitKey = (ctx: Context) => Spender | undefined;

/** Whom one request counts against, and what the log lines say of them. */
export interface Spender {
  key: string;
  log: Record<string, unknown>;
}

export interface RateLimiterOptions {
  redis: Redis;
  logger: Logger;
  /** The budget's Redis key prefix: each budget is counted apart. */
  keyPrefix: string;
  points: number;
  windowSeconds: number;
  /** The log line of a refusal. */
  refusedLog: string;
}

/**
 * A budget of requests, kept in Redis so every replica shares it. While Redis is unreachable an in-memory budget of
 * the same size stands in on each replica, so an outage neither lifts the limit nor takes the calls down; when both
 * fail the request goes through (a missed count rather than an outage). Spending resolves to the seconds to wait
 * when the budget is spent, or undefined when the request may go on.
 */
export function rateLimiter(options: RateLimiterOptions): (who: Spender) => Promise<number | undefined> {
  const { redis, logger, keyPrefix, points, windowSeconds, refusedLog } = options;
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: windowSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds }),
  });
  return async (who) => {
    try {
      await limiter.consume(who.key);
      return undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        logger.error({ err: rejection, budget: keyPrefix, ...who.log }, 'rate limiter failed; request let through');
        return undefined;
      }
      logger.warn({ budget: keyPrefix, ...who.log }, refusedLog);
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  };
}

export interface RateLimitOptions extends RateLimiterOptions {
  counted: RateLimitKey;
  /** The pt-BR answer (429) once the budget is spent. */
  message: string;
}

/** A budget check: resolves when the request may go on, throws otherwise. */
export type RateLimitCheck = (ctx: Context) => Promise<void>;

/** A `rateLimiter` on the requests `counted` names: 429 with `message` and `Retry-After` once their budget is spent. */
export function rateLimitCheck(options: RateLimitOptions): RateLimitCheck {
  const spend = rateLimiter(options);
  return async (ctx) => {
    const who = options.counted(ctx);
    if (!who) return;
    const retryAfter = await spend(who);
    if (retryAfter !== undefined) {
      ctx.set('Retry-After', String(retryAfter));
      throw tooManyRequests(options.message);
    }
  };
}

/** A budget checked before the route runs. */
export const beforeRoute =
  (check: RateLimitCheck): Middleware =>
  async (ctx, next) => {
    await check(ctx);
    await next();
  };

/** `rateLimitCheck` before the route. */
export const rateLimit = (options: RateLimitOptions): Middleware => beforeRoute(rateLimitCheck(options));

/**
 * Counts a request against its signed-in account (set by the check before), never its address: a sales rush's crowd
 * shares its carriers' addresses, and a venue's Wi-Fi puts every door phone behind one.
 */
export const byAccount: RateLimitKey = (ctx) => {
  const userId = (ctx.state.user as AuthUser).id;
  return { key: userId, log: { userId } };
};
