import type { AddressInfo } from 'node:net';
import type { Router } from '@koa/router';
import type { DestinationStream } from 'pino';
import { z } from 'zod';
import { PRODUCERS, undeclaredConsumers } from '@ticketing/proto';
import {
  cachedKeySet,
  cachedSessions,
  createTokenVerifier,
  fetchKeys,
  identitySessions,
  type TokenVerifier,
} from './auth.ts';
import {
  createBus,
  createTransport,
  busMigrations,
  type Bus,
  type EventHandlers,
  type EventRegistry,
  type Outbox,
  type PublishRule,
} from './bus/index.ts';
import {
  assertProductionSafe,
  type ProductionCheck,
  baseConfigSchema,
  ConfigError,
  directDatabaseUrl,
  loadConfig,
  type BaseConfig,
} from './config.ts';
import { createDb, migrate, pendingMigrations, type Knex, type Migration } from './db.ts';
import { createHttpApp } from './http/app.ts';
import { databaseCheck, monitorDependencies } from './http/health.ts';
import { jsonClient } from './http/json-client.ts';
import { closeConnectionsWhile, listen } from './http/listen.ts';
import { runProcess, runTask, type RunningServer } from './run-process.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { closeRedis, connectRedis, createRedis, type Redis } from './redis.ts';
import { createServiceAuth, type ServiceAuth } from './service-auth.ts';
import { developmentKeyRing, isDevelopmentKey, serviceKeys, type ServiceKeys } from './service-keys.ts';
import { startTracing, type Tracer } from './tracing.ts';

/** What a service's `setup` receives: its configuration and the shared runtime, already connected. */
export interface ServiceDeps<C> {
  config: C;
  db: Knex;
  redis: Redis;
  logger: Logger;
  metrics: Metrics;
  /** Spans of this service's own work beyond requests and events (a provider call, a delivery). */
  tracer: Tracer;
  outbox: Outbox;
  verifyToken: TokenVerifier;
  /** Signs this service's calls to others' `/internal` routes and guards its own. */
  serviceAuth: ServiceAuth;
}

export interface ServiceParts {
  router?: Router;
  consumers?: EventHandlers;
  close?(): Promise<void>;
}

export interface ServiceDefinition<S extends z.ZodRawShape = z.ZodRawShape> {
  /** Also the schema, the consumer group and the logger name. */
  name: string;
  /**
   * The name it proves it is, on its calls to other services and as the producer of its events: `name` unless set.
   * Processes that share one schema, and so one outbox, share one identity.
   */
  identity?: string;
  config?: S;
  migrations: Migration[];
  /** Settings that must hold a real secret in production (SERVICE_KEY is always checked). */
  secrets?: readonly string[];
  /** The service's own production rules for its settings (e.g. payments: Asaas's production API only). */
  productionChecks?: Readonly<Record<string, ProductionCheck>>;
  jsonLimit?: string;
  setup(deps: ServiceDeps<BaseConfig & z.infer<z.ZodObject<S>>>): ServiceParts | Promise<ServiceParts>;
}

export function defineService<S extends z.ZodRawShape>(definition: ServiceDefinition<S>): ServiceDefinition<S> {
  return definition;
}

export interface RunningService<C = BaseConfig> extends ServiceDeps<C>, RunningServer {
  name: string;
  schema: string;
  bus: Bus;
}

/** A session check waits this long for identity before answering 503. */
const SESSION_LOOKUP_TIMEOUT_MS = 3000;

export interface StartOptions {
  verifyToken?: TokenVerifier;
  logStream?: DestinationStream;
  eventSchemas?: EventRegistry;
  /** Who may publish the events of `eventSchemas`; proto's owners unless given. */
  mayPublish?: PublishRule;
  maxAttempts?: number;
}

/** The compose file's keys, which anyone can rebuild, are refused in production. */
const SERVICE_KEY_CHECKS: Record<string, ProductionCheck> = {
  SERVICE_KEY: (key) =>
    typeof key === 'string' && isDevelopmentKey(key) ? 'a development key cannot be used in production' : undefined,
  SERVICE_PUBLIC_KEYS: (keys) =>
    Object.values((keys ?? {}) as Record<string, string>).some(isDevelopmentKey)
      ? 'lists a development key, with which anyone can sign'
      : undefined,
};

/**
 * A service's configuration as it boots with it, refused when not fit for production, and the keys it proves
 * itself with.
 */
export function loadServiceConfig<S extends z.ZodRawShape>(
  definition: Pick<ServiceDefinition<S>, 'name' | 'identity' | 'config' | 'secrets' | 'productionChecks'>,
  env: Record<string, string | undefined>,
): { config: BaseConfig & z.infer<z.ZodObject<S>>; keys: ServiceKeys } {
  const configSchema = baseConfigSchema.extend(definition.config ?? ({} as S));
  const config = loadConfig(configSchema, env) as BaseConfig & z.infer<z.ZodObject<S>>;
  assertProductionSafe(configSchema, config, ['SERVICE_KEY', ...(definition.secrets ?? [])], {
    ...SERVICE_KEY_CHECKS,
    ...definition.productionChecks,
  });
  const identity = definition.identity ?? definition.name;
  // Started by hand outside production with no keys at all: the compose file's development keys, which production refuses.
  if (!config.SERVICE_KEY && !config.SERVICE_PUBLIC_KEYS && config.NODE_ENV !== 'production')
    return { config, keys: developmentKeyRing([...new Set([...PRODUCERS, identity])]).keys(identity) };
  const missing = [
    ...(config.SERVICE_KEY ? [] : [`  SERVICE_KEY: ${identity}'s own private key must be set`]),
    ...(config.SERVICE_PUBLIC_KEYS ? [] : ["  SERVICE_PUBLIC_KEYS: every service's public key must be set"]),
  ];
  if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
  try {
    return { config, keys: serviceKeys(identity, config.SERVICE_KEY!, config.SERVICE_PUBLIC_KEYS!) };
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  SERVICE_PUBLIC_KEYS: ${(error as Error).message}`);
  }
}

/** Every migration of a service's schema: the bus's tables, then its own. */
const schemaMigrations = (definition: Pick<ServiceDefinition, 'migrations'>) => [
  ...busMigrations,
  ...definition.migrations,
];

/** Applies the schema's pending migrations; replicas migrating at once wait for each other on an advisory lock. */
async function migrateSchema(config: BaseConfig, schema: string, migrations: Migration[]): Promise<void> {
  // The migration lock is a session advisory lock: it needs PostgreSQL itself, not a transaction-mode pooler.
  const migrator = createDb(directDatabaseUrl(config), schema, 2);
  await migrate(migrator, schema, migrations).finally(() => migrator.destroy());
}

/** Where the release migrates before its pods: refuses to serve a schema older than this code. */
async function assertMigrated(db: Knex, schema: string, migrations: Migration[]): Promise<void> {
  const missing = await pendingMigrations(db, schema, migrations);
  if (missing.length > 0) {
    throw new Error(
      `schema ${schema} lacks the migrations ${missing.map((m) => m.name).join(', ')}: run the entry with "migrate" first`,
    );
  }
}

/**
 * The `migrate` entry (`node <entry> migrate`): applies the service's migrations and ends, run once per release before
 * its pods start (an init container). Reads only the database settings: it serves nothing and signs nothing.
 */
export async function migrateService(
  definition: Pick<ServiceDefinition, 'name' | 'migrations'>,
  env: Record<string, string | undefined>,
): Promise<void> {
  const config = loadConfig(baseConfigSchema, env);
  const schema = config.DB_SCHEMA ?? definition.name.replaceAll('-', '_');
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  await migrateSchema(config, schema, schemaMigrations(definition));
  logger.info({ schema }, 'schema migrated');
}

/** Boots a service: config, database + migrations, Redis, bus (relay and consumers), then HTTP. */
export async function startService<S extends z.ZodRawShape>(
  definition: ServiceDefinition<S>,
  env: Record<string, string | undefined>,
  options: StartOptions = {},
): Promise<RunningService<BaseConfig & z.infer<z.ZodObject<S>>>> {
  const { config, keys } = loadServiceConfig(definition, env);
  const schema = config.DB_SCHEMA ?? definition.name.replaceAll('-', '_');
  const logger = createLogger(definition.name, config.LOG_LEVEL, options.logStream);
  const metrics = createMetrics(definition.name);
  const tracing = startTracing(definition.name, config);
  const { tracer } = tracing;
  const db = createDb(config.DATABASE_URL, schema, config.DB_POOL_MAX);
  const redis = createRedis(config.REDIS_URL, config.REDIS_PREFIX);
  // An outage is reported once by the dependency monitor, not at every failed reconnect.
  redis.on('error', () => {});
  const opened: { close(): Promise<unknown> }[] = [
    { close: () => db.destroy() },
    { close: () => closeRedis(redis) },
    // Last: the spans of everything closed before it are sent.
    { close: () => tracing.close() },
  ];
  try {
    const migrations = schemaMigrations(definition);
    if (config.MIGRATE_ON_START) await migrateSchema(config, schema, migrations);
    else await assertMigrated(db, schema, migrations);
    // Redis may be restarting: the process serves without it (its users degrade) and /healthz says so.
    await connectRedis(redis);
    const transport = await createTransport(config, definition.name, logger);
    const bus = createBus({
      group: definition.name,
      schema,
      db,
      transport,
      keys,
      logger,
      metrics,
      schemas: options.eventSchemas,
      mayPublish: options.mayPublish,
      maxAttempts: options.maxAttempts,
      tracer,
    });
    opened.unshift({ close: () => bus.close() });
    const serviceAuth = createServiceAuth(keys);
    const identity = jsonClient('identity', config.IDENTITY_URL, SESSION_LOOKUP_TIMEOUT_MS, {
      serviceAuth,
      logger,
      metrics,
      tracer,
    });
    const verifyToken =
      options.verifyToken ??
      createTokenVerifier(
        cachedKeySet(fetchKeys(config.JWKS_URL ?? `${config.IDENTITY_URL}/.well-known/jwks.json`), { logger }),
        cachedSessions(redis, identitySessions(identity)),
      );
    const deps: ServiceDeps<typeof config> = {
      config,
      db,
      redis,
      logger,
      metrics,
      tracer,
      outbox: bus.outbox,
      verifyToken,
      serviceAuth,
    };
    const parts = await definition.setup(deps);
    if (parts.close) opened.unshift({ close: parts.close });
    // The broker's ACLs grant each group what EVENT_CONSUMERS lists: a handler beyond it must fail here, not there.
    const undeclared = undeclaredConsumers(definition.name, Object.keys(parts.consumers ?? {}));
    if (undeclared) throw new Error(undeclared);

    const database = databaseCheck(db);
    let draining = false;
    // Out of rotation as soon as it drains: the load balancer sends its new connections elsewhere.
    const accepting = async () => {
      if (draining) throw new Error('draining');
    };
    // Without its database the process serves nothing; without Redis or the bus it still serves, degraded.
    const dependencies = monitorDependencies(
      { database, redis: () => redis.ping(), bus: () => bus.ping() },
      { logger, metrics },
    );
    opened.unshift({ close: async () => dependencies.close() });
    await dependencies.probe();
    const app = createHttpApp({
      logger,
      metrics,
      tracer,
      router: parts.router,
      jsonLimit: definition.jsonLimit,
      health: { readiness: { database, accepting }, dependencies },
    });
    const server = await listen(app, config.PORT, config.HOST);
    closeConnectionsWhile(server, () => draining);
    const { port } = server.address() as AddressInfo;
    logger.info({ port }, 'service listening');
    // Requests are served while the consumers join their group: on Kafka a restarted replica's join waits for the
    // group to rebalance (seconds), and its routes need only the database (what they publish waits in the outbox).
    await bus.start(parts.consumers).catch((error: unknown) => {
      server.close();
      server.closeAllConnections();
      throw error;
    });

    return {
      ...deps,
      name: definition.name,
      url: `http://127.0.0.1:${port}`,
      schema,
      bus,
      server,
      async drain() {
        draining = true;
        logger.info({ delayMs: config.DRAIN_DELAY_MS }, 'draining');
        await new Promise((resolve) => setTimeout(resolve, config.DRAIN_DELAY_MS));
      },
      async close() {
        // Stop taking requests, let in-flight ones finish briefly, then release everything in reverse order (the
        // consumers finish the event in hand first).
        draining = true;
        const stopped = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, config.DRAIN_TIMEOUT_MS).unref())]);
        server.closeAllConnections();
        for (const part of opened) await part.close().catch((error) => logger.warn({ err: error }, 'close failed'));
      },
    };
  } catch (error) {
    for (const part of opened) await part.close().catch(() => {});
    throw error;
  }
}

/** The entry point of a service process (see `runProcess`), or with the argument `migrate`, of its migrations. */
export function runService<S extends z.ZodRawShape>(definition: ServiceDefinition<S>): Promise<void> {
  if (process.argv[2] === 'migrate') return runTask(definition.name, () => migrateService(definition, process.env));
  return runProcess(definition.name, () => startService(definition, process.env));
}
