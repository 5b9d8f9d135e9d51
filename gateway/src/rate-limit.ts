import type { Middleware } from 'koa';
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
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: compare the raw path.
  }
  const normalized = decoded.toLowerCase().replace(/\/+$/, '');
  return LIMITED.has(normalized) ? normalized : undefined;
}

export interface AuthRateLimitOptions {
  redis: Redis;
  points: number;
  windowSeconds: number;
  logger: Logger;
}

/**
 * Per-client budgets on the authentication calls, kept in Redis so every gateway replica shares them.
 * While Redis is unreachable an in-memory limiter of the same size takes over (per replica), so an
 * outage neither opens the door to guessing nor takes login down.
 */
export function authRateLimit({ redis, points, windowSeconds, logger }: AuthRateLimitOptions): Middleware {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: 'auth-limit',
    points,
    duration: windowSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: 'auth-limit', points, duration: windowSeconds }),
  });

  return async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    const path = limitedPath(ctx.path);
    if (!path) return next();
    const client = addressGroup(clientIp(ctx));
    try {
      await limiter.consume(`${path.slice(path.lastIndexOf('/') + 1)}:${client}`);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        // Not a verdict but a failure of both stores: better a missed count than a login outage.
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
