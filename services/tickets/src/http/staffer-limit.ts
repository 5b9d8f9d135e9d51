import type { Middleware } from 'koa';
import { byAccount, rateLimit, type Logger, type Redis } from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';

/**
 * The door's budgets per signed-in staffer, per minute: look-ups, and readings of every kind (scans, look-up
 * admissions, synced batches). They run after the role check.
 */
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
    rateLimit({
      redis,
      logger,
      keyPrefix: `door-${name}-limit`,
      points: perMinute,
      windowSeconds: 60,
      counted: byAccount,
      message,
      refusedLog: 'door budget spent',
    });
  return {
    searches: budget('searches', searchesPerMinute, doorMessages.tooManySearches),
    readings: budget('readings', readingsPerMinute, doorMessages.tooManyReadings),
  };
}
