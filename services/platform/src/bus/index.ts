import { eventSchemas, mayPublish as ownersAllow } from '@ticketing/proto';
import { directDatabaseUrl, type BaseConfig } from '../config.ts';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Tracer } from '../tracing.ts';
import type { Metrics } from '../metrics.ts';
import type { ServiceKeys } from '../service-keys.ts';
import { startConsumers, type EventHandlers } from './consumer.ts';
import type { KafkaTransportOptions } from './kafka-transport.ts';
import { createOutbox, type EventRegistry, type Outbox } from './outbox.ts';
import { createPostgresTransport } from './postgres-transport.ts';
import { startRelay, type Relay } from './relay.ts';
import { signEnvelope, type PublishRule } from './signatures.ts';
import type { Subscription, Transport } from './transport.ts';

export type { EventHandler, EventHandlers, HandlerContext } from './consumer.ts';
export type { EventRegistry, Outbox, PendingEvent } from './outbox.ts';
export { outboxInsert } from './outbox.ts';
export type { BusMessage, Delivery, DeliveryHandler, Subscription, Transport } from './transport.ts';
export type { ReplayResult } from './dead-letters.ts';
export { busMigrations } from './migrations.ts';
export { RetryLater } from './transport.ts';
export { replayDeadLetter } from './dead-letters.ts';
export { scrubUserEvents } from './erasure.ts';
export type { PublishRule } from './signatures.ts';
export { createPostgresTransport, createOutbox, startConsumers, startRelay, signEnvelope };

/**
 * Picks the transport the configuration names: Kafka in production, the PostgreSQL log on a bare machine. The Kafka
 * client is loaded only when it is the one named: a process on the PostgreSQL log does without its memory.
 */
export async function createTransport(config: BaseConfig, clientId: string, logger: Logger): Promise<Transport> {
  if (config.BUS === 'kafka') {
    if (!config.KAFKA_BROKERS) throw new Error('BUS=kafka needs KAFKA_BROKERS');
    const { createKafkaTransport } = await import('./kafka-transport.ts');
    return createKafkaTransport({ brokers: config.KAFKA_BROKERS.split(','), clientId, logger, ...kafkaLogin(config) });
  }
  // LISTEN needs a session of its own: a transaction-mode pooler would drop it.
  return createPostgresTransport({
    url: directDatabaseUrl(config),
    schema: config.BUS_SCHEMA,
    poolMax: config.BUS_POOL_MAX,
    logger,
  });
}

/** The SASL login (and TLS) the configuration names; a mechanism needs both a user name and a password. */
function kafkaLogin(config: BaseConfig): Pick<KafkaTransportOptions, 'sasl' | 'ssl'> {
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_USERNAME: username, KAFKA_PASSWORD: password } = config;
  if (mechanism && !(username && password))
    throw new Error('KAFKA_SASL_MECHANISM needs KAFKA_USERNAME and KAFKA_PASSWORD');
  return {
    ssl: config.KAFKA_TLS,
    ...(mechanism ? { sasl: { mechanism, username: username!, password: password! } } : {}),
  };
}

export interface BusOptions {
  group: string;
  schema: string;
  db: Knex;
  transport: Transport;
  /** The service's own key signs what it publishes; the others' public keys check what it consumes. */
  keys: ServiceKeys;
  /** Who may publish what; the owners proto names unless given. */
  mayPublish?: PublishRule;
  logger: Logger;
  metrics: Metrics;
  schemas?: EventRegistry;
  maxAttempts?: number;
  /** Producer spans for the events written, consumer spans for the events handled. */
  tracer?: Tracer;
}

export interface Bus {
  outbox: Outbox;
  /** Starts the outbox relay and, when given, the service's consumers. */
  start(handlers?: EventHandlers): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createBus(options: BusOptions): Bus {
  const {
    group,
    schema,
    db,
    transport,
    keys,
    mayPublish = ownersAllow,
    logger,
    metrics,
    schemas = eventSchemas,
    tracer,
  } = options;
  let relay: Relay | undefined;
  const outbox = createOutbox(schemas, () => relay?.wake(), tracer);
  let subscription: Subscription | undefined;
  return {
    outbox,
    async start(handlers) {
      relay = startRelay({ db, schema, transport, keys, logger, metrics });
      if (handlers && Object.keys(handlers).length > 0) {
        subscription = await startConsumers({
          group,
          handlers,
          schemas,
          transport,
          keys,
          mayPublish,
          db,
          outbox,
          logger,
          metrics,
          tracer,
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
