import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, type Logger, type Redis } from '@ticketing/platform';
import type { IdentitySettings } from '../config.ts';
import { messages } from './user.ts';

/** Refused before the password is even checked; says when to try again. */
export class TooManyAttempts extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(429, messages.tooManyAttempts);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Who is trying a password: the account named and the address the attempt comes from. */
export interface PasswordAttempt {
  email: string;
  ip: string;
}

/** Counts wrong passwords per account and per address; over either budget, attempts are refused for a while. */
export interface LoginThrottle {
  /** Throws `TooManyAttempts` when the account or the address used up its failures. */
  check(attempt: PasswordAttempt): Promise<void>;
  failed(attempt: PasswordAttempt): Promise<void>;
  /** A right password clears the account's count (the address keeps its own). */
  succeeded(attempt: PasswordAttempt): Promise<void>;
}

export const LOGIN_FAILURES_PREFIX = { account: 'identity:login-failures:account', ip: 'identity:login-failures:ip' };

/** IPv4 clients reached through an IPv6 socket count under their IPv4 address. */
const addressOf = (ip: string) => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip) || 'unknown';

export function createLoginThrottle(
  redis: Redis,
  { maxPerAccount, maxPerIp, windowSeconds }: IdentitySettings['login'],
  logger: Logger,
): LoginThrottle {
  // While Redis is unreachable, a per-replica memory count of the same size takes over: no open door, no outage.
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration: windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds }),
    });
  const perAccount = limiter(LOGIN_FAILURES_PREFIX.account, maxPerAccount);
  const perIp = limiter(LOGIN_FAILURES_PREFIX.ip, maxPerIp);

  return {
    async check({ email, ip }) {
      const [account, address] = await Promise.all([perAccount.get(email), perIp.get(addressOf(ip))]);
      const over = (state: RateLimiterRes | null, max: number) => state !== null && state.consumedPoints >= max;
      const blocked = [over(account, maxPerAccount) ? account : null, over(address, maxPerIp) ? address : null].filter(
        (state) => state !== null,
      );
      if (blocked.length === 0) return;
      const wait = Math.max(...blocked.map((state) => state.msBeforeNext));
      logger.warn({ by: over(account, maxPerAccount) ? 'account' : 'ip', ip: addressOf(ip) }, 'login throttled');
      throw new TooManyAttempts(Math.max(1, Math.ceil(wait / 1000)));
    },
    async failed({ email, ip }) {
      await Promise.all([perAccount.penalty(email), perIp.penalty(addressOf(ip))]);
    },
    async succeeded({ email }) {
      await perAccount.delete(email);
    },
  };
}
