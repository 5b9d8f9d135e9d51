import type { Context, Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests, type Logger, type Redis } from '@ticketing/platform';
import { addressGroup, clientIp } from './client-ip.ts';

export const TOO_MANY_ATTEMPTS_MESSAGE = 'Muitas tentativas. Tente novamente em alguns minutos.';

/** The calls attackers repeat: password guessing, code guessing and e-mail flooding. Each has its own budget. */
export const AUTH_LIMITED_PATHS = [
  '/api/auth/login',
  '/api/auth/register',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
  '/api/auth/sign-in-link',
  '/api/auth/verify-code',
  '/api/auth/resend-code',
  '/api/auth/resend-verification',
] as const;

const LIMITED = new Set<string>(AUTH_LIMITED_PATHS);

/**
 * The limited path a request path stands for. The services' router ignores case, a trailing slash and
 * percent-encoding of plain letters, so `/api/auth/LOGIN/` or `/api/auth/l%6Fgin` count as login too.
 */
export function limitedPath(path: string): string | undefined {
  const normalized = normalizedPath(path);
  return LIMITED.has(normalized) ? normalized : undefined;
}

function normalizedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: compare the raw path.
  }
  return decoded.toLowerCase().replace(/\/+$/, '');
}

/** The budget a request counts against (e.g. `login`), or undefined when it is not limited. */
export type Budget = (ctx: Context) => string | undefined;

/** Each authentication call has a budget of its own. */
export const authBudget: Budget = (ctx) => {
  const path = ctx.method === 'POST' ? limitedPath(ctx.path) : undefined;
  return path?.slice(path.lastIndexOf('/') + 1);
};

/**
 * Courtesy codes are short enough to guess: looking one up and redeeming one share a budget, so nobody walks
 * through the code space from one address.
 */
export const courtesyCodeBudget: Budget = (ctx) => {
  const path = normalizedPath(ctx.path);
  if (ctx.method === 'GET' && /^\/api\/courtesy-links\/[^/]+$/.test(path)) return 'code';
  if (ctx.method === 'POST' && path === '/api/courtesy/redeem') return 'code';
  return undefined;
};

export interface RateLimitOptions {
  name: string;
  budget: Budget;
  redis: Redis;
  points: number;
  windowSeconds: number;
  logger: Logger;
}

/**
 * Per-client budgets on the calls attackers repeat, kept in Redis so every gateway replica shares them.
 * While Redis is unreachable an in-memory limiter of the same size takes over (per replica), so an
 * outage neither opens the door to guessing nor takes the calls down.
 */
export function rateLimit({ name, budget, redis, points, windowSeconds, logger }: RateLimitOptions): Middleware {
  const keyPrefix = `${name}-limit`;
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: windowSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds }),
  });

  return async (ctx, next) => {
    const bucket = budget(ctx);
    if (!bucket) return next();
    const path = ctx.path;
    const client = addressGroup(clientIp(ctx));
    try {
      await limiter.consume(`${bucket}:${client}`);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Not a verdict but a failure of both stores: better a missed count than an outage.
        logger.error({ err: rejection }, 'rate limiter failed; request let through');
        return next();
      }
      ctx.set('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      logger.warn({ path, client }, 'too many attempts');
      throw tooManyRequests(TOO_MANY_ATTEMPTS_MESSAGE);
    }
    return next();
  };
}
