import { setTimeout as delay } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import pg from 'pg';
import { backoffDelayMs } from '../backoff.ts';
import type { Logger } from '../logger.ts';
import {
  RetryLater,
  type BusMessage,
  type Delivery,
  type DeliveryHandler,
  type Subscription,
  type Transport,
} from './transport.ts';
import { ensureBusLog } from './log-tables.ts';
import { createWaker } from './wake.ts';

export interface PostgresTransportOptions {
  url: string;
  schema: string;
  logger: Logger;
  /** Sessions for publishing and for reading partitions under their row lock (LISTEN has one more of its own). */
  poolMax?: number;
  partitions?: number;
  /**
   * How often a member looks for messages when no notification woke it: a safety net (a notification lost with its
   * session, a partition left by a member that closed while holding it); every publish notifies its topic.
   */
  pollMs?: number;
  batchSize?: number;
  /** How long the log keeps a message, as Kafka's topics keep theirs (7 days): events carry personal data. */
  retentionMs?: number;
  /** How often expired messages are deleted. */
  pruneEveryMs?: number;
}

const WEEK_MS = 7 * 24 * 3600_000;

/**
 * A durable log in PostgreSQL with Kafka's semantics: topics split into partitions by key, one offset per
 * (group, topic, partition), and a partition read by one group member at a time (row lock, SKIP LOCKED).
 * Offsets are handed out under the partition's head row lock, so they commit in order and no reader skips one.
 */
export function createPostgresTransport(options: PostgresTransportOptions): Transport {
  const { url, schema, logger, poolMax = 6, partitions = 4, pollMs = 10_000, batchSize = 100 } = options;
  const { retentionMs = WEEK_MS, pruneEveryMs = 3600_000 } = options;
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  pool.on('error', (error) => logger.warn({ err: error }, 'bus pool client error'));
  const id = pg.escapeIdentifier;
  const s = id(schema);
  const channel = `${schema}_log`;
  const subscriptions = new Set<Subscription>();
  let ready: Promise<void> | undefined;

  const ensureSchema = () =>
    (ready ??= inTransaction(async (client) => {
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [`bus-schema:${schema}`]);
      await ensureBusLog(client, schema);
    }).catch((error) => {
      ready = undefined;
      throw error;
    }));

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A session lost mid-transaction (PostgreSQL restarting) fails the statement under way and is then reported as an
    // 'error' event, which the pool no longer listens for on a client it lent out: unheard, it would end the process.
    let lost: Error | undefined;
    const onLost = (error: Error) => (lost = error);
    client.on('error', onLost);
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.removeListener('error', onLost);
      client.release(lost);
    }
  }

  const partitionOf = (key: string) => crc32(key) % partitions;

  /**
   * One statement, so one round trip and one commit: each partition's head is advanced by its messages, with the
   * heads locked in one global order (topic, then partition) so publishers never deadlock; the messages take the
   * offsets handed out, each key's in the order given; each topic's subscribers are woken once.
   */
  async function publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await ensureSchema();
    await pool.query(
      `with message as (
         select topic, partition, key, value, position
         from unnest($1::text[], $2::int[], $3::text[], $4::text[]) with ordinality as m(topic, partition, key, value, position)
       ), head as (
         insert into ${s}.heads (topic, partition, next_offset)
         select topic, partition, count(*) from message group by topic, partition order by topic, partition
         on conflict (topic, partition) do update set next_offset = heads.next_offset + excluded.next_offset
         returning topic, partition, next_offset
       ), logged as (
         insert into ${s}.log (topic, partition, "offset", key, value)
         select m.topic, m.partition,
                h.next_offset - count(*) over mine + row_number() over (mine order by m.position) - 1, m.key, m.value
         from message m join head h using (topic, partition)
         window mine as (partition by m.topic, m.partition)
       )
       select pg_notify($5, topic) from (select distinct topic from message) as t`,
      [
        messages.map((m) => m.topic),
        messages.map((m) => partitionOf(m.key)),
        messages.map((m) => m.key),
        messages.map((m) => m.value),
        channel,
      ],
    );
  }

  async function subscribe(group: string, topics: string[], handler: DeliveryHandler): Promise<Subscription> {
    await ensureSchema();
    const assignments = topics.flatMap((topic) =>
      Array.from({ length: partitions }, (_, partition) => ({ topic, partition })),
    );
    await pool.query(
      `insert into ${s}.offsets (group_id, topic, partition)
       select $1, topic, partition from unnest($2::text[], $3::int[]) as a(topic, partition)
       on conflict do nothing`,
      [group, assignments.map((a) => a.topic), assignments.map((a) => a.partition)],
    );

    const waker = createWaker();
    let closed = false;
    const closing = new AbortController();
    let listener: pg.Client | undefined;
    /** LISTEN on a session of its own; when that session is lost (PostgreSQL restarting), another is opened. */
    const listen = async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('notification', ({ payload }) => {
        if (payload !== undefined && topics.includes(payload)) waker.wake();
      });
      client.on('error', (error) => {
        if (listener !== client) return;
        listener = undefined;
        logger.warn({ err: error, group }, 'bus listener lost; listening again');
        void client.end().catch(() => {});
        void relisten();
      });
      try {
        await client.connect();
        await client.query(`listen ${id(channel)}`);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      if (closed) await client.end().catch(() => {});
      else listener = client;
    };
    /** Listens again, backing off while PostgreSQL is away, then wakes the loop for what was published meanwhile. */
    const relisten = async () => {
      for (let attempt = 1; !closed; attempt++) {
        try {
          await listen();
          return waker.wake();
        } catch {
          await delay(backoffDelayMs(attempt, 200, 5000), undefined, { signal: closing.signal }).catch(() => {});
        }
      }
    };
    await listen();

    let failures = 0;
    // Members start at different partitions so two members of a group spread out at once.
    const start = Math.floor(Math.random() * assignments.length);
    // Partitions whose next message asked to wait (RetryLater), with when they may be read again. This member's
    // own: another member of the group may read such a partition sooner and then holds it by its own count.
    const held = new Map<string, number>();
    const heldKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

    /**
     * Reads one partition under its offset row lock; commits the offset past what was handled. True when it read a
     * full batch of messages, which may have more behind it.
     */
    const drain = ({ topic, partition }: { topic: string; partition: number }) => {
      const until = held.get(heldKey(topic, partition));
      if (until !== undefined && until > Date.now()) return false;
      held.delete(heldKey(topic, partition));
      return inTransaction(async (client) => {
        const claimed = await client.query<{ next_offset: string }>(
          `select next_offset from ${s}.offsets where group_id = $1 and topic = $2 and partition = $3
           for update skip locked`,
          [group, topic, partition],
        );
        if (claimed.rowCount === 0) return false;
        const from = Number(claimed.rows[0]!.next_offset);
        const rows = await client.query<{ offset: string; key: string; value: string }>(
          `select "offset", key, value from ${s}.log where topic = $1 and partition = $2 and "offset" >= $3
           order by "offset" limit $4`,
          [topic, partition, from, batchSize],
        );
        let next = from;
        let failure: unknown;
        for (const row of rows.rows) {
          if (closed) break;
          const delivery: Delivery = { topic, partition, offset: row.offset, key: row.key, value: row.value };
          try {
            await handler(delivery);
            next = Number(row.offset) + 1;
          } catch (error) {
            if (error instanceof RetryLater) held.set(heldKey(topic, partition), Date.now() + error.delayMs);
            else failure = error;
            break;
          }
        }
        if (next > from) {
          await client.query(
            `update ${s}.offsets set next_offset = $4 where group_id = $1 and topic = $2 and partition = $3`,
            [group, topic, partition, next],
          );
        }
        if (failure) throw failure;
        return rows.rows.length === batchSize && next > from;
      });
    };

    /**
     * The group's partitions with messages past its offset, in this member's order: a plain read, so an idle poll
     * takes no row lock and writes nothing (a locked read is a write, and every poll of every group would commit one).
     */
    const pending = async () => {
      const { rows } = await pool.query<{ topic: string; partition: number }>(
        `select o.topic, o.partition from ${s}.offsets o
         join ${s}.heads h on h.topic = o.topic and h.partition = o.partition
         where o.group_id = $1 and o.topic = any($2::text[]) and h.next_offset > o.next_offset`,
        [group, topics],
      );
      const waiting = new Set(rows.map((row) => heldKey(row.topic, row.partition)));
      return Array.from(
        { length: assignments.length },
        (_, i) => assignments[(start + i) % assignments.length]!,
      ).filter(({ topic, partition }) => waiting.has(heldKey(topic, partition)));
    };

    /** How long the loop may sleep: until the next poll, or sooner when a held partition becomes readable. */
    const idleMs = () => Math.max(0, Math.min(pollMs, ...[...held.values()].map((until) => until - Date.now())));

    const loop = (async () => {
      while (!closed) {
        let more = false;
        try {
          for (const assignment of await pending()) {
            if (closed) break;
            if (await drain(assignment)) more = true;
          }
          failures = 0;
        } catch (error) {
          failures++;
          logger.warn({ err: error, group }, 'bus delivery failed; retrying');
          await waker.sleep(backoffDelayMs(failures, 200, 5000));
          continue;
        }
        // A full batch may have more behind it; otherwise what was published meanwhile has notified, and the sleep
        // ends at once: no read that would find nothing.
        if (!more) await waker.sleep(idleMs());
      }
    })();

    const subscription: Subscription = {
      async close() {
        closed = true;
        closing.abort();
        waker.wake();
        await loop;
        await listener?.end().catch(() => {});
        subscriptions.delete(subscription);
      },
    };
    subscriptions.add(subscription);
    return subscription;
  }

  /** Messages past the retention go, read or not, like a Kafka segment past `retention.ms`. */
  async function prune(): Promise<void> {
    await ensureSchema();
    const { rowCount } = await pool.query(
      `delete from ${s}.log where created_at < now() - $1::bigint * interval '1 millisecond'`,
      [retentionMs],
    );
    if (rowCount) logger.info({ messages: rowCount }, 'expired bus messages deleted');
  }
  const pruning = setInterval(
    () => prune().catch((error) => logger.warn({ err: error }, 'bus log not pruned')),
    pruneEveryMs,
  );
  pruning.unref();

  return {
    publish,
    subscribe,
    async ping() {
      await ensureSchema();
      await pool.query('select 1');
    },
    async close() {
      clearInterval(pruning);
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      await pool.end();
    },
  };
}
