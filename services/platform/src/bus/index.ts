import { eventSchemas } from '@ticketing/proto';
import { directDatabaseUrl, type BaseConfig } from '../config.ts';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import { startConsumers, type EventHandlers } from './consumer.ts';
import { createKafkaTransport } from './kafka-transport.ts';
import { createOutbox, type EventRegistry, type Outbox } from './outbox.ts';
import { createPostgresTransport } from './postgres-transport.ts';
import { startRelay, type Relay } from './relay.ts';
import type { Subscription, Transport } from './transport.ts';

export type { EventHandler, EventHandlers, HandlerContext } from './consumer.ts';
export type { EventRegistry, Outbox, PendingEvent } from './outbox.ts';
export type { BusMessage, Delivery, DeliveryHandler, Subscription, Transport } from './transport.ts';
export type { ReplayResult } from './dead-letters.ts';
export { busMigrations } from './migrations.ts';
export { RetryLater } from './transport.ts';
export { replayDeadLetter } from './dead-letters.ts';
export { scrubUserEvents } from './erasure.ts';
export { createKafkaTransport, createPostgresTransport, createOutbox, startConsumers, startRelay };

/** Picks the transport the configuration names: Kafka in production, the PostgreSQL log on a bare machine. */
export function createTransport(config: BaseConfig, clientId: string, logger: Logger): Transport {
  if (config.BUS === 'kafka') {
    if (!config.KAFKA_BROKERS) throw new Error('BUS=kafka needs KAFKA_BROKERS');
    return createKafkaTransport({ brokers: config.KAFKA_BROKERS.split(','), clientId, logger });
  }
  // LISTEN needs a session of its own: a transaction-mode pooler would drop it.
  return createPostgresTransport({
    url: directDatabaseUrl(config),
    schema: config.BUS_SCHEMA,
    poolMax: config.BUS_POOL_MAX,
    logger,
  });
}

export interface BusOptions {
  group: string;
  schema: string;
  db: Knex;
  transport: Transport;
  logger: Logger;
  metrics: Metrics;
  schemas?: EventRegistry;
  maxAttempts?: number;
}

export interface Bus {
  outbox: Outbox;
  /** Starts the outbox relay and, when given, the service's consumers. */
  start(handlers?: EventHandlers): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createBus(options: BusOptions): Bus {
  const { group, schema, db, transport, logger, metrics, schemas = eventSchemas } = options;
  let relay: Relay | undefined;
  const outbox = createOutbox(schemas, () => relay?.wake());
  let subscription: Subscription | undefined;
  return {
    outbox,
    async start(handlers) {
      relay = startRelay({ db, schema, transport, logger, metrics });
      if (handlers && Object.keys(handlers).length > 0) {
        subscription = await startConsumers({
          group,
          handlers,
          schemas,
          transport,
          db,
          outbox,
          logger,
          metrics,
          maxAttempts: options.maxAttempts,
        });
      }
    },
    ping: () => transport.ping(),
    async close() {
      await subscription?.close();
      await relay?.close();
      await transport.close();
    },
  };
}
