import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, addressGroup, type Logger, type Redis } from '@ticketing/platform';
import { identityMessages } from '@ticketing/proto';
import type { LoginLimits } from '../config.ts';

/** Refused before the password is even checked; says when to try again. */
export class TooManyAttempts extends AppError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(429, identityMessages.tooManyAttempts);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Who is trying a password: the account named and the address the attempt comes from. */
export interface PasswordAttempt {
  email: string;
  ip: string;
}

/** What an attempt that may go on does: check the password, or (account under guessing, new address) not. */
export type AttemptVerdict = 'password' | 'challenge';

/**
 * Wrong passwords, counted so that they stop a guesser without locking out the crowd behind the same address
 * (a carrier's CGNAT, a venue's Wi-Fi):
 * - per account and address: after a few failures that address waits before each next try, longer each time;
 * - per account: after more failures from anywhere, the addresses that failed on it wait too, and any other
 *   address is challenged: instead of a password try, the owner is e-mailed a sign-in link. No address is ever
 *   refused for failures it did not make, so nobody can keep the owner out, and a guesser gains nothing by
 *   moving to new addresses;
 * - per address: a budget no audience's typos reach, against one address spraying many accounts.
 * An IPv6 client counts by its /64, the block one subscriber gets: a guesser cannot hop between its addresses.
 */
export interface LoginThrottle {
  /**
   * Throws `TooManyAttempts` while this address has to wait before trying this account; otherwise says whether
   * the password may be tried or the attempt is challenged.
   */
  check(attempt: PasswordAttempt): Promise<AttemptVerdict>;
  failed(attempt: PasswordAttempt): Promise<void>;
  /** A right password clears the account's counts (other addresses' waits on it go on). */
  succeeded(attempt: PasswordAttempt): Promise<void>;
}

export const LOGIN_THROTTLE_PREFIX = 'identity:login';

/** A slow guesser keeps its count (and its delay growing) for a day. */
const FAILURE_MEMORY_SECONDS = 24 * 3600;
const FIRST_DELAY_SECONDS = 30;

export function createLoginThrottle(redis: Redis, limits: LoginLimits, logger: Logger): LoginThrottle {
  // While Redis is unreachable, a per-replica memory count of the same size takes over: no open door, no outage.
  const store = (name: string, points: number, duration: number) => {
    const keyPrefix = `${LOGIN_THROTTLE_PREFIX}:${name}`;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    });
  };
  const pairFailures = store('failures:pair', 1, FAILURE_MEMORY_SECONDS);
  const accountFailures = store('failures:account', 1, FAILURE_MEMORY_SECONDS);
  const addressFailures = store('failures:address', limits.maxPerAddress, limits.windowSeconds);
  // A wait is a one-point budget blocked for the delay.
  const waits = store('wait', 1, 1);
  const waiting = (state: RateLimiterRes | null) => (state !== null && state.consumedPoints > 1 ? state : null);

  /** 30 s after the free failures are used up, doubling with each further failure, up to the ceiling. */
  const delayAfter = (failures: number, free: number) =>
    failures < free ? 0 : Math.min(limits.maxDelaySeconds, FIRST_DELAY_SECONDS * 2 ** Math.min(failures - free, 20));
  const keys = ({ email, ip }: PasswordAttempt) => {
    const account = email.toLowerCase();
    const address = addressGroup(ip) || 'unknown';
    return { account, address, pair: `${account}|${address}` };
  };

  return {
    async check(attempt) {
      const { account, address, pair } = keys(attempt);
      const [pairWait, accountWait, pairCount, accountCount, addressCount] = await Promise.all([
        waits.get(`pair:${pair}`),
        waits.get(`account:${account}`),
        pairFailures.get(pair),
        accountFailures.get(account),
        addressFailures.get(address),
      ]);
      const failingHere = (pairCount?.consumedPoints ?? 0) > 0;
      const sprayed =
        addressCount !== null && addressCount.consumedPoints >= limits.maxPerAddress ? addressCount : null;
      const refusals = [waiting(pairWait), failingHere ? waiting(accountWait) : null, sprayed].filter(
        (state) => state !== null,
      );
      if (refusals.length === 0) {
        const underGuessing = (accountCount?.consumedPoints ?? 0) >= limits.freePerAccount;
        return underGuessing && !failingHere ? 'challenge' : 'password';
      }
      const wait = Math.max(...refusals.map((state) => state.msBeforeNext));
      logger.warn({ by: sprayed ? 'address' : 'account', address }, 'login throttled');
      throw new TooManyAttempts(Math.max(1, Math.ceil(wait / 1000)));
    },
    async failed(attempt) {
      const { account, address, pair } = keys(attempt);
      const [pairCount, accountCount] = await Promise.all([
        pairFailures.penalty(pair),
        accountFailures.penalty(account),
        addressFailures.penalty(address),
      ]);
      const pairDelay = delayAfter(pairCount.consumedPoints, limits.freePerPair);
      const accountDelay = delayAfter(accountCount.consumedPoints, limits.freePerAccount);
      await Promise.all([
        pairDelay > 0 ? waits.block(`pair:${pair}`, pairDelay) : undefined,
        accountDelay > 0 ? waits.block(`account:${account}`, accountDelay) : undefined,
      ]);
    },
    async succeeded(attempt) {
      const { account, pair } = keys(attempt);
      await Promise.all([
        pairFailures.delete(pair),
        accountFailures.delete(account),
        waits.delete(`pair:${pair}`),
        waits.delete(`account:${account}`),
      ]);
    },
  };
}
