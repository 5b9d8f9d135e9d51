import { addressGroup, rateLimiter, type Logger, type Redis } from '@ticketing/platform';

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

/** What a budget looks at: the request's method and path (without its query). */
export interface Call {
  method: string;
  path: string;
}

/** The budget a request counts against (e.g. `login`), or undefined when it is not limited. */
export type Budget = (call: Call) => string | undefined;

/** Each authentication call has a budget of its own. */
export const authBudget: Budget = ({ method, path: requested }) => {
  const path = method === 'POST' ? limitedPath(requested) : undefined;
  return path?.slice(path.lastIndexOf('/') + 1);
};

const MAY_NAME_COURTESY = /courtesy|%/i;

/**
 * Courtesy codes are short enough to guess: looking one up and redeeming one share a budget, so nobody walks
 * through the code space from one address.
 */
export const courtesyCodeBudget: Budget = ({ method, path: requested }) => {
  if (method !== 'GET' && method !== 'POST') return undefined;
  // Without an escape, only a path holding the word can name a courtesy call: most skip the normalising.
  if (!MAY_NAME_COURTESY.test(requested)) return undefined;
  const path = normalizedPath(requested);
  if (method === 'GET' && /^\/api\/courtesy-links\/[^/]+$/.test(path)) return 'code';
  if (method === 'POST' && path === '/api/courtesy/redeem') return 'code';
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
 * is unreachable an outage neither opens the door to guessing nor takes the calls down. Checking a call resolves to
 * the seconds to wait when one of its budgets is spent; most calls count against none and get undefined at once,
 * without waiting for anything.
 */
export function clientRateLimits({ redis, logger, limits }: ClientRateLimitsOptions) {
  const layers = limits.map(({ name, budget, points, windowSeconds }) => ({
    budget,
    spend: rateLimiter({
      redis,
      logger,
      points,
      windowSeconds,
      keyPrefix: `${name}-limit`,
      refusedLog: 'too many attempts',
    }),
  }));
  async function spendFrom(first: number, call: Call, clientIp: string): Promise<number | undefined> {
    const client = addressGroup(clientIp);
    for (let i = first; i < layers.length; i++) {
      const { budget, spend } = layers[i]!;
      const bucket = budget(call);
      if (!bucket) continue;
      const retryAfter = await spend({ key: `${bucket}:${client}`, log: { path: call.path, client } });
      if (retryAfter !== undefined) return retryAfter;
    }
    return undefined;
  }
  return (call: Call, clientIp: string): Promise<number | undefined> | undefined => {
    const first = layers.findIndex(({ budget }) => budget(call) !== undefined);
    return first < 0 ? undefined : spendFrom(first, call, clientIp);
  };
}

export type ClientRateLimits = ReturnType<typeof clientRateLimits>;
