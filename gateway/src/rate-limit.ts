import type { Context, Middleware } from 'koa';
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

export interface ClientRateLimitOptions {
  name: string;
  budget: Budget;
  redis: Redis;
  points: number;
  windowSeconds: number;
  logger: Logger;
}

/**
 * Per-client budgets (by address group) on the calls attackers repeat, shared by every gateway replica; while Redis
 * is unreachable an outage neither opens the door to guessing nor takes the calls down.
 */
export function clientRateLimit({ name, budget, ...options }: ClientRateLimitOptions): Middleware {
  const limit = rateLimit({
    ...options,
    keyPrefix: `${name}-limit`,
    counted: (ctx) => {
      const bucket = budget(ctx);
      if (!bucket) return undefined;
      const client = addressGroup(clientIp(ctx));
      return { key: `${bucket}:${client}`, log: { path: ctx.path, client } };
    },
    message: TOO_MANY_ATTEMPTS_MESSAGE,
    refusedLog: 'too many attempts',
  });
  // Most requests count against no budget: they go on without a trip through the limiter.
  return (ctx, next) => (budget(ctx) ? limit(ctx, next) : next());
}
