import { Redis } from 'ioredis';

export type { Redis };

/**
 * Fails fast while Redis is down instead of queueing commands forever: a command waits for at most two reconnection
 * attempts (about a second against a refused port, two connect timeouts against an unreachable host), then rejects,
 * and its caller degrades (rate limits fall back to memory, sessions are asked of identity).
 */
export function createRedis(url: string, keyPrefix: string): Redis {
  return new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
}

/**
 * Makes the first attempt to connect, and carries on whatever its outcome: a process boots and serves while Redis is
 * down (a restart on event day), ioredis reconnecting in the background until it is back. Up, it is connected before
 * the first request, which finds its shared counters and caches rather than their in-memory fallbacks.
 */
export async function connectRedis(redis: Redis): Promise<void> {
  await redis.connect().catch(() => {});
}

/** Closes the connection, whether it is up or waiting to reconnect after an outage. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
    return;
  }
  // While ioredis waits to reconnect its socket is already closed, yet `disconnect()` would still arm a
  // 2 s timer to force that socket shut, keeping the process alive for nothing. Drop the dead socket first.
  const connector = (redis as unknown as { connector?: { stream?: { destroyed?: boolean } } }).connector;
  if (connector?.stream?.destroyed) connector.stream = undefined;
  redis.disconnect();
}
