import { Gauge } from 'prom-client';
import type { Envelope } from '@ticketing/proto';
import { backoffDelayMs } from '../backoff.ts';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { ServiceKeys } from '../service-keys.ts';
import { signEnvelope } from './signatures.ts';
import type { Transport } from './transport.ts';
import { startWakeableLoop } from './wake.ts';

export interface RelayOptions {
  db: Knex;
  schema: string;
  transport: Transport;
  /** The producer's keys: every envelope leaves signed by it. */
  keys: ServiceKeys;
  logger: Logger;
  metrics: Metrics;
  /** How often it looks for rows no wake-up announced (a replay, the seed, another replica's); its own commits wake it. */
  pollMs?: number;
  batchSize?: number;
}

const KEEP_PUBLISHED_DAYS = 7;
const CLEANUP_EVERY_MS = 10 * 60_000;
/** Another replica holds the relay lock: it may have read the outbox before this one's rows committed. */
const BUSY_RETRY_MS = 100;
/**
 * Batches start at least this far apart: commits that come close together (a door's readings, a sale's orders)
 * share one batch, five round trips, instead of each paying its own; a lone commit is relayed at once.
 */
const BATCH_GAP_MS = 20;

export interface Relay {
  /** Something was committed to the outbox: relay it now rather than at the next poll. */
  wake(): void;
  close(): Promise<void>;
}

/**
 * Publishes the outbox in order, each envelope signed by this producer; rows are marked published in a transaction
 * that commits only after the transport accepted them, so a crash in between publishes them again (consumers drop
 * the duplicate). One replica relays at a time (advisory lock);
 * each wakes on its own commits, tries again soon when another holds the lock, and polls for rows written without
 * a wake-up.
 */
export function startRelay(options: RelayOptions): Relay {
  const { db, schema, transport, keys, logger, metrics, pollMs = 5000, batchSize = 200 } = options;
  new Gauge({
    name: 'bus_outbox_pending',
    help: 'Outbox rows written but not yet published',
    registers: [metrics.registry],
    async collect() {
      const [row] = await db('outbox').whereNull('published_at').count({ n: '*' });
      this.set(Number(row?.n ?? 0));
    },
  });

  const relayBatch = () =>
    db.transaction(async (trx) => {
      const lock = await trx.raw('select pg_try_advisory_xact_lock(hashtext(?)) as ok', [`outbox:${schema}`]);
      if (!lock.rows[0].ok) return 'busy';
      // The marks need no disk flush of their own: a crash that loses them publishes the rows again, and consumers
      // drop the duplicates. A door's readings and a sale's orders then share the disk's flushes with one less writer.
      await trx.raw('set local synchronous_commit = off');
      // Marked in the statement that reads them: the mark commits only once the transport has taken them.
      const rows: { seq: string; topic: string; key: string; envelope: Envelope }[] = await trx('outbox')
        .whereIn('seq', trx('outbox').whereNull('published_at').orderBy('seq').limit(batchSize).select('seq'))
        .update({ published_at: trx.fn.now() })
        .returning(['seq', 'topic', 'key', 'envelope']);
      if (rows.length === 0) return 0;
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      await transport.publish(
        rows.map((row) => ({
          topic: row.topic,
          key: row.key,
          value: JSON.stringify(signEnvelope(keys, row.envelope)),
          ...(row.envelope.traceparent ? { headers: { traceparent: row.envelope.traceparent } } : {}),
        })),
      );
      return rows.length;
    });

  let failures = 0;
  let lastCleanup = 0;
  let lastBatch = -Infinity;
  return startWakeableLoop(async (sleep) => {
    try {
      const gap = lastBatch + BATCH_GAP_MS - performance.now();
      if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
      lastBatch = performance.now();
      const published = await relayBatch();
      failures = 0;
      if (Date.now() - lastCleanup > CLEANUP_EVERY_MS) {
        lastCleanup = Date.now();
        await db('outbox')
          .where('published_at', '<', db.raw(`now() - interval '${KEEP_PUBLISHED_DAYS} days'`))
          .delete();
      }
      if (published === batchSize) return;
      await sleep(published === 'busy' ? BUSY_RETRY_MS : pollMs);
    } catch (error) {
      failures++;
      logger.warn({ err: error }, 'outbox relay failed; retrying');
      await sleep(backoffDelayMs(failures, 200, 5000));
    }
  });
}
