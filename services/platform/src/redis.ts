import { Redis } from 'ioredis';

export type { Redis };

/** Fails fast while Redis is down instead of queueing commands forever. */
export function createRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}
