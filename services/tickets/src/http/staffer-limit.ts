import type { Middleware } from 'koa';
import {
  beforeRoute,
  byAccount,
  rateLimitCheck,
  type Logger,
  type RateLimitCheck,
  type Redis,
} from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';

/**
 * The door's budgets per signed-in staffer, per minute: look-ups, and readings of every kind (scans, look-up
 * admissions, synced batches). They run after the role check.
 */
export interface DoorLimits {
  searches: Middleware;
  readings: Middleware;
  /** The readings budget, spent by a route alongside a check that only reads (one wait for both). */
  spendReading: RateLimitCheck;
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
    rateLimitCheck({
      redis,
      logger,
      keyPrefix: `door-${name}-limit`,
      points: perMinute,
      windowSeconds: 60,
      counted: byAccount,
      message,
      refusedLog: 'door budget spent',
    });
  const spendReading = budget('readings', readingsPerMinute, doorMessages.tooManyReadings);
  return {
    searches: beforeRoute(budget('searches', searchesPerMinute, doorMessages.tooManySearches)),
    readings: beforeRoute(spendReading),
    spendReading,
  };
}
