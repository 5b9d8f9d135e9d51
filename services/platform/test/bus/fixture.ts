import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { mayPublish } from '@ticketing/proto';
import { createDb, migrate, type Knex } from '../../src/db.ts';
import { createLogger } from '../../src/logger.ts';
import { createMetrics, type Metrics } from '../../src/metrics.ts';
import { backoffDelayMs } from '../../src/backoff.ts';
import { generateKeyRing, keyRing } from '../../src/service-keys.ts';
import { createKafkaTransport } from '../../src/bus/kafka-transport.ts';
import {
  busMigrations,
  createOutbox,
  createPostgresTransport,
  startConsumers,
  startRelay,
  type EventHandlers,
  type HandlerContext,
  type Transport,
} from '../../src/bus/index.ts';
import type { Tracer } from '../../src/tracing.ts';

/** Everything one contract scenario needs, shared by the test process and the processes it kills. */
export interface FixtureSettings {
  kind: 'postgres' | 'kafka';
  databaseUrl: string;
  schema: string;
  busSchema: string;
  brokers: string[];
  topic: string;
  /** Private keys by service name: the fixture's own (`contract`) and two services of the product's. */
  keys: Record<string, string>;
}

/** The name the fixture's relay signs as; it may publish anything, the product's services only their own. */
export const PRODUCER = 'contract';

export const thingHappened = z.object({ n: z.number().int(), poison: z.boolean().default(false) });

export function newSettings(kind: FixtureSettings['kind']): FixtureSettings {
  const id = randomBytes(4).toString('hex');
  const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  if (kind === 'kafka' && brokers.length === 0) {
    throw new Error('KAFKA_BROKERS is not set: `npm test` starts a Kafka-protocol mock cluster and sets it');
  }
  return {
    kind,
    databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    schema: `contract_${id}`,
    busSchema: `bus_contract_${id}`,
    brokers,
    topic: `contract.${id}.thing-happened`,
    keys: generateKeyRing([PRODUCER, 'payments', 'mail']).privateKeys,
  };
}

const handledTable = {
  name: '0001_handled',
  async up(db: Knex) {
    // No key on event_id on purpose: an event applied twice would show up as two rows.
    await db.schema.createTable('handled', (t) => {
      t.bigIncrements('seq');
      t.uuid('event_id').notNullable();
      t.text('key').notNullable();
      t.integer('n').notNullable();
      t.text('member').notNullable();
    });
  },
};

/**
 * `sharesBus`: a second service on another fixture's bus, which leaves dropping the bus to that fixture. `tracer`
 * records the producer and consumer spans.
 */
export async function openFixture(
  settings: FixtureSettings,
  { sharesBus = false, tracer }: { sharesBus?: boolean; tracer?: Tracer } = {},
) {
  const logger = createLogger('contract', process.env.TEST_LOG_LEVEL ?? 'silent');
  const metrics = createMetrics('contract');
  const db = createDb(settings.databaseUrl, settings.schema, 8);
  await migrate(db, settings.schema, [...busMigrations, handledTable]);
  const schemas = { [settings.topic]: thingHappened };
  const ring = keyRing(settings.keys);
  const keys = ring.keys(PRODUCER);
  const publishRule = (producer: string, type: string) => producer === PRODUCER || mayPublish(producer, type);
  const relays: { wake(): void }[] = [];
  const outbox = createOutbox(schemas, () => relays.forEach((relay) => relay.wake()), tracer);
  const closers: { close(): Promise<unknown> }[] = [];

  const transport = (clientId = 'contract'): Transport => {
    const made =
      settings.kind === 'kafka'
        ? createKafkaTransport({
            brokers: settings.brokers,
            clientId,
            logger,
            // Long enough that a busy machine's late heartbeats do not start a rebalance storm.
            sessionTimeoutMs: 10_000,
            maxWaitTimeMs: 500,
          })
        : createPostgresTransport({ url: settings.databaseUrl, schema: settings.busSchema, logger, pollMs: 200 });
    closers.push(made);
    return made;
  };

  const fixture = {
    db,
    settings,
    /** The keys a service of the ring signs with. */
    keysOf: (name: string) => ring.keys(name),
    metrics,
    transport,
    /** Commits `items` as events of the topic, one transaction each, in order. */
    async stage(items: { key: string; n: number; poison?: boolean }[]) {
      const ids: string[] = [];
      for (const item of items) {
        await db.transaction(async (trx) => {
          const envelope = await outbox.add(trx, settings.topic, item.key, { n: item.n, poison: item.poison ?? false });
          ids.push(envelope.id);
        });
      }
      return ids;
    },
    async relay(over: Transport) {
      const relay = startRelay({
        db,
        schema: settings.schema,
        transport: over,
        keys,
        logger,
        metrics,
        pollMs: 200,
      });
      relays.push(relay);
      closers.unshift(relay);
      return relay;
    },
    /** Stores that `member` applied the event (in the handler's transaction). */
    record:
      (member: string) =>
      async (payload: z.infer<typeof thingHappened>, { trx, event }: HandlerContext) => {
        await trx('handled').insert({ event_id: event.id, key: event.key, n: payload.n, member });
      },
    /**
     * A member of `group` that records each event it applies, failing on poison (unless given its own handlers).
     * Transient failures wait 5–40 ms unless `transientDelayMs` says otherwise.
     */
    async consume(
      over: Transport,
      group: string,
      member: string,
      options: { handlers?: EventHandlers; transientDelayMs?: (attempt: number) => number } = {},
    ) {
      const subscription = await startConsumers({
        group,
        schemas,
        transport: over,
        keys,
        mayPublish: publishRule,
        db,
        outbox,
        logger,
        metrics,
        tracer,
        maxAttempts: 3,
        retryDelayMs: () => 20,
        transientDelayMs: options.transientDelayMs ?? ((attempt) => backoffDelayMs(attempt, 10, 40)),
        handlers: options.handlers ?? {
          [settings.topic]: async (payload: z.infer<typeof thingHappened>, context) => {
            if (payload.poison) throw new Error(`cannot handle ${payload.n}`);
            await fixture.record(member)(payload, context);
          },
        },
      });
      closers.unshift(subscription);
      return subscription;
    },
    handled: (): Promise<{ event_id: string; key: string; n: number; member: string }[]> =>
      db('handled').orderBy('seq').select('event_id', 'key', 'n', 'member'),
    async close() {
      for (const closer of closers) await closer.close().catch(() => {});
      await db.raw('drop schema if exists ?? cascade', [settings.schema]);
      if (settings.kind === 'postgres' && !sharesBus)
        await db.raw('drop schema if exists ?? cascade', [settings.busSchema]);
      await db.destroy();
    },
  };
  return fixture;
}

/** A metric's value for these labels, as a scrape would read it (0 when it has none). */
export async function metricValue(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const { values } = await metrics.registry.getSingleMetric(name)!.get();
  const found = values.find((value) =>
    Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted),
  );
  return found?.value ?? 0;
}

export type Fixture = Awaited<ReturnType<typeof openFixture>>;
