import type { Knex, Logger, Redis } from '@ticketing/platform';
import type { LiveCounts } from '../domain/door-counts.ts';

/**
 * Notices that an event's tickets changed, from the worker (which hears every change on the bus) to every verifier
 * replica (which serve the door panels), over Redis pub/sub: one channel per event. Redis applies no key prefix to
 * channels, so the platform's REDIS_PREFIX is added here; the worker and the verifiers must share it.
 */
const channelOf = (prefix: string, eventId: string) => `${prefix}door:changed:${eventId}`;

/** A pattern matches the prefix literally only with its glob characters escaped. */
const literal = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

export interface DoorNotices {
  /** Announces the change once the handler's transaction commits (nothing if it rolls back). */
  afterCommit(trx: Knex.Transaction, eventId: string): void;
}

/** A lost notice only delays the panels until the next change, so a Redis outage never fails the handler. */
export function doorNoticePublisher(redis: Redis, prefix: string, logger: Logger): DoorNotices {
  return {
    afterCommit(trx, eventId) {
      trx.executionPromise.then(
        () =>
          redis.publish(channelOf(prefix, eventId), '').catch((error: unknown) => {
            logger.warn({ err: error, eventId }, 'door notice not sent');
          }),
        () => {},
      );
    },
  };
}

export interface DoorNoticeSubscription {
  close(): Promise<void>;
}

/**
 * Subscribes once per process, on a connection of its own (a subscribed connection can send nothing else), to
 * every event's channel. While Redis is down the panels keep their streams; once it is back every followed event
 * is read again, since notices sent meanwhile are gone.
 */
export async function subscribeDoorNotices(
  redis: Redis,
  prefix: string,
  live: Pick<LiveCounts, 'changed' | 'changedAll'>,
  logger: Logger,
): Promise<DoorNoticeSubscription> {
  // Commands wait for a reconnection instead of failing, so the subscription is never given up.
  const subscriber = redis.duplicate({ maxRetriesPerRequest: null });
  // The outage is reported by the dependency monitor.
  subscriber.on('error', () => {});
  const start = channelOf(prefix, '').length;
  subscriber.on('pmessage', (_pattern: string, channel: string) => live.changed(channel.slice(start)));
  let connectedBefore = false;
  subscriber.on('ready', () => {
    if (connectedBefore) {
      logger.info('door notices back: reading the live counts again');
      live.changedAll();
    }
    connectedBefore = true;
  });
  await subscriber.connect();
  await subscriber.psubscribe(channelOf(literal(prefix), '*'));
  return {
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
