/**
 * The product on one machine, each service and the gateway a process of its own under a supervisor: what `npm start`
 * runs, and what the rush benchmark and the chaos suite run beside it.
 *
 * With the standard ports it uses PostgreSQL from DATABASE_URL (else embedded, data under `dataDir`), the local Redis
 * and the ports in `apps.ts`. With `ports: 'free'` it is a second product that touches nothing of the first: its own
 * embedded PostgreSQL and redis-server (database roles and Redis users are server-wide) and free ports everywhere.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  DATABASE_ROLES,
  REDIS_USER_NAMES,
  generateKeyRing,
  provisionDatabaseRoles,
  provisionRedisUsers,
  type DatabaseRole,
  type RedisUser,
} from '@ticketing/platform';
import { identityConfig } from '@ticketing/identity';
import { PRODUCERS } from '@ticketing/proto';
import { startMailCatcher, DEFAULT_HTTP_PORT, DEFAULT_SMTP_PORT } from '../mail-catcher.ts';
import { seed } from '../seed.ts';
import {
  gateway as standardGateway,
  paymentSandbox,
  services as standardServices,
  upstreamUrls,
  type App,
} from './apps.ts';
import { ensureFrontendsBuilt } from './frontends.ts';
import { ensurePostgres } from './postgres.ts';
import { freePort } from './free-port.ts';
import { waitForHttp } from './ready.ts';
import { ensureRedis } from './redis.ts';
import { stackSettings } from './stack-settings.ts';
import { createSupervisor, type Backoff } from './supervisor.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
/**
 * Node's options for every process, so that the benchmarks and the chaos run measure what `npm start` runs: V8 keeps
 * 64 MB for new objects by default, and 2 MB saves ~27 MB a process at rest for a few % of peak throughput; `gc`
 * lets a process give back what a burst grew once it is quiet (`releaseHeapWhenQuiet`).
 */
const NODE_ARGS = ['--max-semi-space-size=2', '--expose-gc'];
/**
 * How a process nobody's request waits on is run: in Linux's idle scheduling class it gets only the CPU the others
 * leave, as on a node of its own (at a niceness of 10, mail still took a tenth of a rush's CPU); elsewhere, at the
 * lowest priority.
 */
const BACKGROUND = process.platform === 'linux' ? ['chrt', '--idle', '0'] : ['nice', '-n', '19'];

export interface StackOptions {
  /** Where embedded PostgreSQL and a Redis of the stack's own keep their data. */
  dataDir: string;
  /** `standard`: the ports of `apps.ts` (npm start); `free`: a second product beside it. */
  ports?: 'standard' | 'free';
  /** Settings every process gets, over the stack's own (e.g. LOG_LEVEL, rate limits of a benchmark). */
  env?: Record<string, string>;
  /** Settings of one process, by its name in `apps.ts`. */
  appEnv?: Record<string, Record<string, string>>;
  /** Kafka brokers for the bus; without them, the durable PostgreSQL transport. */
  kafkaBrokers?: string;
  /** Where each process's output lines go. */
  log?: (app: string, line: string) => void;
  /** The demonstration events (npm start's, on an empty catalog). */
  seed?: boolean;
  backoff?: Backoff;
  /**
   * The PostgreSQL bus reaches the database through a pass-through that `busLink` cuts and restores: the bus goes
   * down while the services keep their database. (Migrations take the same way: both use DATABASE_DIRECT_URL.)
   */
  busLink?: boolean;
}

const newPasswords = <T extends string>(names: readonly T[]) =>
  Object.fromEntries(names.map((name) => [name, randomBytes(18).toString('base64url')])) as Record<T, string>;

/**
 * Each service logs in with a role of its own that owns its schema and nothing else; the passwords are new at
 * every start. A DATABASE_URL whose user may not create roles runs every service as that user.
 */
async function serviceDatabaseUrls(adminUrl: string): Promise<Record<DatabaseRole, string>> {
  try {
    return await provisionDatabaseRoles({ adminUrl, passwords: newPasswords(DATABASE_ROLES) });
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    console.warn('DATABASE_URL may not create roles: every service uses it (no per-service database roles)');
    return Object.fromEntries(DATABASE_ROLES.map((role) => [role, adminUrl])) as Record<DatabaseRole, string>;
  }
}

/**
 * Each process also gets a Redis user of its own, limited to its keys (new passwords at every start). A Redis that
 * refuses ACL SETUSER (a managed one, or older than 7) is shared as it is.
 */
async function serviceRedisUrls(adminUrl: string): Promise<Record<RedisUser, string>> {
  try {
    return await provisionRedisUsers({ adminUrl, passwords: newPasswords(REDIS_USER_NAMES) });
  } catch (error) {
    console.warn(`REDIS_URL may not create ACL users (${(error as Error).message}): every process uses it`);
    return Object.fromEntries(REDIS_USER_NAMES.map((user) => [user, adminUrl])) as Record<RedisUser, string>;
  }
}

/** Starts the product; resolves once every process answers, with where to reach each and how to stop it. */
export async function startStack(options: StackOptions) {
  const { dataDir, ports = 'standard', log = () => {}, kafkaBrokers } = options;
  const free = ports === 'free';
  const supervisor = createSupervisor({
    backoff: options.backoff,
    log: (line) => log('supervisor', line),
  });
  const stops: (() => unknown)[] = [];
  async function stop(): Promise<void> {
    await supervisor.stop();
    for (const stopPart of stops.reverse()) await stopPart();
  }

  try {
    const withPort = async <T extends App>(app: T): Promise<T> => (free ? { ...app, port: await freePort() } : app);
    const services = await Promise.all(standardServices.map(withPort));
    const sandbox = await withPort(paymentSandbox);
    const gateway = {
      ...(await withPort(standardGateway)),
      opsPort: free ? await freePort() : standardGateway.opsPort,
    };

    const postgres = await ensurePostgres(dataDir, free ? { port: await freePort(), own: true } : {});
    stops.push(postgres.stop);
    const redis = await ensureRedis(dataDir, free ? { port: await freePort(), own: true } : {});
    stops.push(redis.stop);
    const busProxy =
      options.busLink && !kafkaBrokers ? await startTcpProxy(Number(new URL(postgres.url).port)) : undefined;
    if (busProxy) stops.push(busProxy.close);
    const throughBusProxy = (url: string) => {
      const direct = new URL(url);
      direct.port = String(busProxy!.port);
      direct.searchParams.delete('host');
      return direct.href;
    };
    const ownSmtp = free || !process.env.SMTP_URL;
    const settings = stackSettings(process.env);
    // Without an SMTP relay, every e-mail lands in a local catcher with a web inbox.
    const catcher = ownSmtp
      ? await startMailCatcher({
          smtpPort: free ? 0 : DEFAULT_SMTP_PORT,
          httpPort: free ? 0 : DEFAULT_HTTP_PORT,
          host: settings.HOST,
        })
      : undefined;
    if (catcher) stops.push(() => catcher.close());
    const databaseUrls = await serviceDatabaseUrls(postgres.url);
    const redisUrls = await serviceRedisUrls(redis.url);
    const sandboxUrl = `http://127.0.0.1:${sandbox.port}/v3`;
    const asaasUrl = free ? sandboxUrl : (process.env.ASAAS_BASE_URL ?? sandboxUrl);
    const common = {
      REDIS_URL: redis.url,
      BUS: kafkaBrokers ? 'kafka' : 'postgres',
      ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}),
      DEV_TOOLS: 'true',
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${gateway.port}`,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      SMTP_URL: catcher?.smtpUrl ?? process.env.SMTP_URL!,
      // Where each process listens, and this run's secrets (the sandbox and payments agree on the webhooks' token).
      ...settings,
      ASAAS_BASE_URL: asaasUrl,
      ...options.env,
    };

    /** Runs `app` under the supervisor: restarted with the same environment (ports, keys, passwords) if it dies. */
    const launch = (app: App & { background?: true }, env: Record<string, string>) =>
      supervisor.start(app.name, () => {
        const command = [process.execPath, ...NODE_ARGS, app.entry];
        // Through a launcher command, so that every thread of the process (the collector's too) runs that way.
        if (app.background) command.unshift(...BACKGROUND);
        const child = spawn(command[0]!, command.slice(1), {
          cwd: root,
          env: { ...process.env, ...common, ...env, PORT: String(app.port), ...options.appEnv?.[app.name] },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        for (const stream of [child.stdout!, child.stderr!])
          createInterface({ input: stream }).on('line', (line) => log(app.name, line));
        return child;
      });
    const waitUntilReady = (port: number, path: string) =>
      waitForHttp(`http://127.0.0.1:${port}${path}`, READY_TIMEOUT_MS, () => supervisor.stopping);

    // Without a real provider, payments talks to the local sandbox, which speaks Asaas's API.
    if (asaasUrl === sandboxUrl) {
      launch(sandbox, {
        SANDBOX_PORT: String(sandbox.port),
        SANDBOX_HOST: settings.HOST,
        // The card and boleto pages as the buyer's browser reaches them, whatever address the sandbox listens on.
        SANDBOX_PUBLIC_URL: `http://localhost:${sandbox.port}`,
        SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${gateway.port}/api/payments/webhook`,
      });
    }
    // The site builds while the services start; the gateway serves it once both are ready.
    const site = ensureFrontendsBuilt();
    // A key pair per service at every start: each signs with its own key and knows everyone's public key.
    const keys = generateKeyRing(PRODUCERS);
    for (const app of services)
      launch(app, {
        // Each service finds the others where this stack runs them (free ports: not the standard ones).
        ...upstreamUrls(services),
        ...keys.settings(app.signsAs),
        DATABASE_URL: databaseUrls[app.role],
        ...(busProxy ? { DATABASE_DIRECT_URL: throughBusProxy(databaseUrls[app.role]) } : {}),
        REDIS_URL: redisUrls[app.name as RedisUser],
      });
    await Promise.all(services.map((app) => waitUntilReady(app.port, '/readyz')));
    if (options.seed ?? true) await seed(postgres.url);
    await site;
    launch(gateway, { ...upstreamUrls(services), REDIS_URL: redisUrls.gateway, OPS_PORT: String(gateway.opsPort) });
    await waitUntilReady(gateway.opsPort, '/healthz');

    return {
      url: `http://127.0.0.1:${gateway.port}`,
      opsUrl: `http://127.0.0.1:${gateway.opsPort}`,
      /** Every process it runs, with the port it answers on. */
      apps: [...services, ...(asaasUrl === sandboxUrl ? [sandbox] : []), gateway] as App[],
      services,
      bus: common.BUS,
      asaasUrl,
      catcher,
      postgres,
      redis,
      supervisor,
      /** With `busLink`, cuts the PostgreSQL bus off the database and restores it. */
      busLink: busProxy && { cut: busProxy.cut, restore: busProxy.restore },
      admin: {
        email: identityConfig.ADMIN_EMAIL.parse(process.env.ADMIN_EMAIL),
        password: identityConfig.ADMIN_PASSWORD.parse(process.env.ADMIN_PASSWORD),
      },
      /** Services first (no restarts from then on), then what they use, the database last. */
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type Stack = Awaited<ReturnType<typeof startStack>>;
