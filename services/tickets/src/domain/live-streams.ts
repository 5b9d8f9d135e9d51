import { randomUUID } from 'node:crypto';
import type { Logger, Redis } from '@ticketing/platform';

/** A live stream counted against its account's cap. */
export interface LiveStream {
  /** Marks the stream alive (its replica still serves it). */
  touch(): Promise<void>;
  release(): void;
}

export interface LiveStreams {
  /** Counts a new stream of `userId`; undefined when the account already has its cap of streams open. */
  open(userId: string): Promise<LiveStream | undefined>;
}

const streamsKey = (userId: string) => `door-live:${userId}`;

/**
 * In one step, so streams opened at once are counted one after another: forgets the streams not seen alive since
 * ARGV[1], then adds this one (scored now) unless the account already has ARGV[4] open. 1 when added.
 */
const OPEN_IF_ROOM = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * The live streams each account has open, across every verifier replica: a sorted set per account in Redis, each
 * stream scored by when it was last seen alive. A stream its replica stopped touching (the replica died) no longer
 * counts after `staleMs`. The new stream is the one refused, not the oldest closed: a closed panel opens again, and
 * would close the next. Without Redis the cap is not enforced.
 */
export function createLiveStreams({
  redis,
  logger,
  perUser,
  staleMs,
}: {
  redis: Redis;
  logger: Logger;
  perUser: number;
  staleMs: number;
}): LiveStreams {
  return {
    async open(userId) {
      const key = streamsKey(userId);
      const id = randomUUID();
      const now = Date.now();
      let counted = true;
      if (redis.status !== 'ready') logger.warn({ userId }, 'live streams not counted: redis unavailable');
      else
        try {
          counted = (await redis.eval(OPEN_IF_ROOM, 1, key, now - staleMs, now, id, perUser, staleMs)) === 1;
        } catch (error) {
          logger.warn({ err: error, userId }, 'live streams not counted');
        }
      if (!counted) return undefined;
      return {
        touch: async () => {
          await redis
            .multi()
            .zadd(key, 'XX', Date.now(), id)
            .pexpire(key, staleMs)
            .exec()
            .catch(() => {});
        },
        release: () => void redis.zrem(key, id).catch(() => {}),
      };
    },
  };
}
