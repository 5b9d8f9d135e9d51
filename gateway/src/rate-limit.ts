import type { Context, Middleware, Next } from 'koa';
import { rateLimit, type Logger, type Redis } from '@ticketing/platform';
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

const MAY_NAME_COURTESY = /courtesy|%/i;

/**
 * Courtesy codes are short enough to guess: looking one up and redeeming one share a budget, so nobody walks
 * through the code space from one address.
 */
export const courtesyCodeBudget: Budget = (ctx) => {
  if (ctx.method !== 'GET' && ctx.method !== 'POST') return undefined;
  // Without an escape, only a path holding the word can name a courtesy call: most skip the normalising.
  if (!MAY_NAME_COURTESY.test(ctx.path)) return undefined;
  const path = normalizedPath(ctx.path);
  if (ctx.method === 'GET' && /^\/api\/courtesy-links\/[^/]+$/.test(path)) return 'code';
  if (ctx.method === 'POST' && path === '/api/courtesy/redeem') return 'code';
  return undefined;
};

export interface ClientRateLimitOptions {
  name: string;
  budget: Budget;
  points: number;
  windowSeconds: number;
}

export interface ClientRateLimitsOptions {
  redis: Redis;
  logger: Logger;
  limits: ClientRateLimitOptions[];
}

/**
 * Per-client budgets (by address group) on the calls attackers repeat, shared by every gateway replica; while Redis
 * is unreachable an outage neither opens the door to guessing nor takes the calls down. One layer for all budgets:
 * most requests count against none and go on after a look at each.
 */
export function clientRateLimits({ redis, logger, limits }: ClientRateLimitsOptions): Middleware {
  const layers = limits.map(({ name, budget, points, windowSeconds }) => ({
    budget,
    limit: rateLimit({
      redis,
      logger,
      points,
      windowSeconds,
      keyPrefix: `${name}-limit`,
      counted: (ctx) => {
        const bucket = budget(ctx);
        if (!bucket) return undefined;
        const client = addressGroup(clientIp(ctx));
        return { key: `${bucket}:${client}`, log: { path: ctx.path, client } };
      },
      message: TOO_MANY_ATTEMPTS_MESSAGE,
      refusedLog: 'too many attempts',
    }),
  }));
  const from = (ctx: Context, next: Next, first: number): Promise<unknown> => {
    for (let i = first; i < layers.length; i++) {
      const { budget, limit } = layers[i]!;
      if (budget(ctx)) return limit(ctx, () => from(ctx, next, i + 1));
    }
    return next();
  };
  return (ctx, next) => from(ctx, next, 0);
}
