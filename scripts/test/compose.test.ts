/**
 * The compose stack as `docker compose` reads it: every app's environment, resolved the way compose resolves it
 * (interpolation, anchors and merge keys), is parsed by that app's own configuration schema, so a setting the app
 * would refuse at boot fails here. Also the infrastructure: Kafka 4 with every bus topic declared, PgBouncer in
 * front of PostgreSQL, the local Asaas sandbox and the mail catcher.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { gatewayConfigSchema } from '@ticketing/gateway';
import {
  baseConfigSchema,
  ConfigError,
  generateKeyRing,
  isDevelopmentKey,
  loadConfig,
  loadServiceConfig,
  DATABASE_ROLES,
  REDIS_USER_NAMES,
  type BaseConfig,
} from '@ticketing/platform';
import {
  EVENT_CONSUMERS,
  EVENT_OWNERS,
  GATEWAY,
  PAYMENT_SANDBOX,
  PRODUCERS,
  SERVICES as LISTED_SERVICES,
  eventSchemas,
  urlSetting,
} from '@ticketing/proto';
import { SERVICE_DEFINITIONS as DEFINITIONS, type ConfigDefinition } from '../lib/service-definitions.ts';

// Parsed YAML: the shapes are checked by the assertions themselves.
type Obj = Record<string, any>;
type Env = Record<string, string | undefined>;

const REPO_DIR = fileURLToPath(new URL('../..', import.meta.url));
const COMPOSE_TEXT = readFileSync(join(REPO_DIR, 'docker-compose.yml'), 'utf8');

/** Compose's interpolation of one string: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?err}`, `${VAR?err}`. */
function interpolate(text: string, env: Env): string {
  const pattern = /\$(?:(\$)|\{([A-Za-z_]\w*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_]\w*))/g;
  return text.replace(
    pattern,
    (whole, dollar?: string, name?: string, operator?: string, arg?: string, bare?: string) => {
      if (dollar) return '$';
      if (bare) return env[bare] ?? '';
      // Compose versions differ on `$` inside a default: the file keeps defaults literal.
      if (arg?.includes('$'))
        throw new Error(`${whole}: a default holding "$" is read differently by compose versions`);
      const value = env[name!];
      const empty = value === undefined || value === '';
      if (operator === ':-') return empty ? arg! : value!;
      if (operator === '-') return value === undefined ? arg! : value;
      if ((operator === ':?' && empty) || (operator === '?' && value === undefined)) {
        throw new Error(`${whole}: required variable ${name} is missing (${arg})`);
      }
      return value ?? '';
    },
  );
}

function interpolateAll(node: unknown, env: Env): unknown {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env));
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, env)]));
  }
  return node;
}

/** The file as compose sees it, given the shell's environment (`.env` files aside). */
function resolveCompose(env: Env): Obj {
  return interpolateAll(parse(COMPOSE_TEXT, { merge: true }), env) as Obj;
}

/** A container's environment: entries without a value come from the shell, like compose does. */
function environmentOf(service: Obj, env: Env): Env {
  if (service.env_file !== undefined) throw new Error('env_file is not read by this test: resolve it here first');
  const entries: [string, unknown][] = Array.isArray(service.environment)
    ? service.environment.map((entry: string) => {
        const at = entry.indexOf('=');
        return at === -1 ? [entry, null] : [entry.slice(0, at), entry.slice(at + 1)];
      })
    : Object.entries(service.environment ?? {});
  return Object.fromEntries(
    entries
      .map(([key, value]) => [key, value === null ? env[key] : String(value)] as const)
      .filter(([, value]) => value !== undefined),
  );
}

/** What a service's configuration comes from: its name, its own settings and its secrets. */

/** The configuration a service boots with, after the checks it runs at boot (production's, its keys'). */
const serviceConfig = (definition: ConfigDefinition, env: Env): BaseConfig & Record<string, unknown> =>
  loadServiceConfig(definition, env).config;

/** The list of services (proto's system.ts), which compose must follow. */
const SERVICES = LISTED_SERVICES.map((service) => ({ ...service, definition: DEFINITIONS[service.name] }));

/**
 * A setting no schema reads is a typo or a leftover: compose would pass it and nobody would notice. NODE_ENV is read
 * by Koa and other libraries even where the app's schema does not list it (the gateway).
 */
const unreadSettings = (env: Env, shape: Record<string, unknown>) =>
  Object.keys(env).filter((key) => !(key in shape) && key !== 'NODE_ENV');

/** The one word per user the broker's JAAS list gives: `user_<name>="<password>"`. */
const kafkaPasswords = (jaas: string) =>
  Object.fromEntries([...jaas.matchAll(/user_([\w-]+)="([^"]*)"/g)].map(([, user, password]) => [user!, password!]));

/** The Redis password each process's user is given by the `redis-acl` step. */
const redisPasswordOf = (services: Obj, user: string) =>
  environmentOf(services['redis-acl'], {})[`${user.toUpperCase().replaceAll('-', '_')}_REDIS_PASSWORD`];

/**
 * Runs a Kafka step's own script (mounted from compose/ with the administrator's client settings beside it) with a
 * stand-in for the Kafka tool it calls, which records its arguments; answers one line per call.
 */
function runKafkaStep(step: Obj, tool: string, toolVariable: string): string[] {
  const [hostPath, containerPath] = (step.volumes as string[])
    .map((volume) => volume.split(':'))
    .find(([, target]) => step.entrypoint.includes(target))!;
  const dir = mkdtempSync(join(tmpdir(), 'kafka-step-'));
  try {
    const stub = join(dir, tool);
    writeFileSync(stub, `#!/bin/sh\necho "$*" >> ${join(dir, 'calls')}\n`);
    chmodSync(stub, 0o755);
    const script = join(REPO_DIR, hostPath!);
    const args = step.entrypoint.map((part: string) => (part === containerPath ? script : part));
    const run = spawnSync(args[0], args.slice(1), {
      env: {
        PATH: process.env.PATH,
        ...environmentOf(step, {}),
        [toolVariable]: stub,
        KAFKA_ADMIN_CONFIG: join(dir, 'admin.properties'),
      },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, 'admin.properties'), 'utf8')).toContain('sasl.mechanism=PLAIN');
    return readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docker-compose.yml on a laptop (no variables set)', () => {
  const compose = resolveCompose({});
  const services: Obj = compose.services;

  test('builds the apps of the list of services, the gateway and the payment sandbox, and no other', () => {
    const built = Object.entries(services).filter(([, service]) => service.build);
    expect(Object.fromEntries(built.map(([name, service]) => [name, service.build.args]))).toEqual(
      Object.fromEntries(
        [...SERVICES, GATEWAY, PAYMENT_SANDBOX].map((app) => [
          app.name,
          expect.objectContaining({ APP_DIR: app.dir, ENTRY: app.entry, PORT: String(app.port) }),
        ]),
      ),
    );
  });

  test.each(SERVICES.map((app) => [app.name, app]))(
    '%s boots with its environment and waits for the infrastructure',
    (_name, app) => {
      const service = services[app.name];
      expect(service.build).toEqual({
        context: '.',
        dockerfile: 'Dockerfile',
        args: expect.objectContaining({ APP_DIR: app.dir, ENTRY: app.entry, PORT: String(app.port) }),
      });

      const env = environmentOf(service, {});
      const config = serviceConfig(app.definition, env);
      expect(config).toMatchObject({ NODE_ENV: 'development', PORT: app.port, BUS: 'kafka', DEV_TOOLS: false });
      expect(config.KAFKA_BROKERS).toBe('kafka:9092');
      expect(unreadSettings(env, baseConfigSchema.extend(app.definition.config ?? {}).shape)).toEqual([]);
      // Each service it calls (the list names it among the callee's callers), at the address compose gives it.
      for (const callee of LISTED_SERVICES.filter((other) => (other.callers as readonly string[]).includes(app.name))) {
        expect(config[urlSetting(callee.name)]).toBe(`http://${callee.name}:${callee.port}`);
      }

      // Pooled queries through PgBouncer, migrations and session state straight to PostgreSQL, as the service's own role.
      const role = app.role;
      const pooled = new URL(String(config.DATABASE_URL));
      const direct = new URL(env.DATABASE_DIRECT_URL!);
      expect([pooled.username, pooled.host, pooled.pathname]).toEqual([role, 'pgbouncer:6432', '/ticketing']);
      expect([direct.username, direct.host, direct.pathname]).toEqual([role, 'postgres:5432', '/ticketing']);
      expect(direct.password).toBe(pooled.password);
      expect(pooled.password).toBe(
        environmentOf(services['database-roles'], {})[`${role.toUpperCase()}_DATABASE_PASSWORD`],
      );

      // Its own Redis user and its own Kafka user, with the passwords the ACL steps give them.
      const redis = new URL(String(config.REDIS_URL));
      expect([redis.username, redis.host]).toEqual([app.name, 'redis:6379']);
      expect(decodeURIComponent(redis.password)).toBe(redisPasswordOf(services, app.name));
      expect([config.KAFKA_SASL_MECHANISM, config.KAFKA_USERNAME]).toEqual(['plain', app.name]);
      const broker = environmentOf(services.kafka, {});
      expect(kafkaPasswords(broker.KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG!)[app.name]).toBe(
        config.KAFKA_PASSWORD,
      );

      expect(service.depends_on).toEqual(
        expect.objectContaining({
          'database-roles': { condition: 'service_completed_successfully' },
          'kafka-topics': { condition: 'service_completed_successfully' },
          'kafka-acls': { condition: 'service_completed_successfully' },
          pgbouncer: { condition: 'service_healthy' },
          redis: { condition: 'service_healthy' },
          kafka: { condition: 'service_healthy' },
        }),
      );
    },
  );

  test('each service signs with a key of its own that all the others know; both tickets processes are one identity', () => {
    const settings = SERVICES.map((app) => ({ app, env: environmentOf(services[app.name], {}) }));
    const keys = new Map(settings.map(({ app, env }) => [app.name, env.SERVICE_KEY!]));
    expect(new Set(keys.values()).size).toBe(SERVICES.length - 1);
    expect(keys.get('tickets-verifier')).toBe(keys.get('tickets-worker'));
    for (const { app, env } of settings) {
      // Development keys: anyone can rebuild them, so production refuses them (below).
      expect([app.name, isDevelopmentKey(env.SERVICE_KEY!)]).toEqual([app.name, true]);
      const { keys: own } = loadServiceConfig(app.definition, env);
      for (const other of PRODUCERS)
        expect([app.name, other, own.publicKeyOf(other)]).toEqual([app.name, other, expect.anything()]);
    }
  });

  test('every dependency exists and is waited for: one-shot steps to finish, the others to be healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, options] of Object.entries((service as Obj).depends_on ?? {})) {
        const target = services[dependency];
        expect(target).toBeDefined();
        if (target.restart === 'no')
          expect([name, (options as Obj).condition]).toEqual([name, 'service_completed_successfully']);
        else {
          expect([name, (options as Obj).condition]).toEqual([name, 'service_healthy']);
          expect([dependency, target.healthcheck?.test]).toEqual([dependency, expect.any(Array)]);
        }
      }
    }
  });

  test('the gateway boots with its environment, is published on 8080 and knows every upstream', () => {
    const gateway = services.gateway;
    expect(gateway.build).toEqual({
      context: '.',
      dockerfile: 'Dockerfile',
      args: { APP_DIR: 'gateway', ENTRY: 'gateway/src/main.ts', PORT: '8080', HEALTHCHECK_PATH: '/readyz' },
    });
    expect(gateway.ports).toContain('8080:8080');
    const env = environmentOf(gateway, {});
    const config = loadConfig(gatewayConfigSchema, env);
    expect(unreadSettings(env, gatewayConfigSchema.shape)).toEqual([]);
    expect(config).toMatchObject({
      PORT: 8080,
      ...Object.fromEntries(SERVICES.map((app) => [urlSetting(app.name), `http://${app.name}:${app.port}`])),
      STATIC_DIR: '/app/frontends/dist',
    });
    const redis = new URL(config.REDIS_URL);
    expect([redis.username, decodeURIComponent(redis.password)]).toEqual([
      'gateway',
      redisPasswordOf(services, 'gateway'),
    ]);
  });

  test('payments talk to the local Asaas sandbox, whose webhooks reach the gateway with the token payments expect', () => {
    const sandbox = services['asaas-sandbox'];
    expect(sandbox.build).toEqual({
      context: '.',
      dockerfile: 'Dockerfile',
      args: expect.objectContaining({ APP_DIR: 'tools/asaas-sandbox', ENTRY: 'tools/asaas-sandbox/src/main.ts' }),
    });
    const sandboxEnv = environmentOf(sandbox, {});
    expect(sandboxEnv.SANDBOX_HOST).toBe('0.0.0.0');
    const port = Number(sandboxEnv.SANDBOX_PORT);
    expect(sandbox.ports).toContain(`${port}:${port}`);
    expect(sandboxEnv.SANDBOX_PUBLIC_URL).toBe(`http://localhost:${port}`);

    const payments = serviceConfig(DEFINITIONS.payments, environmentOf(services.payments, {}));
    expect(payments.ASAAS_BASE_URL).toBe(`http://asaas-sandbox:${port}/v3`);
    expect(payments.ASAAS_WEBHOOK_TOKEN).toBe(sandboxEnv.ASAAS_WEBHOOK_TOKEN);
    // The sandbox accepts any key when it is given none.
    expect(sandboxEnv.ASAAS_API_KEY).toBeUndefined();
    expect(sandboxEnv.SANDBOX_WEBHOOK_URL).toBe('http://gateway:8080/api/payments/webhook');
    expect(services.payments.depends_on['asaas-sandbox']).toEqual({ condition: 'service_healthy' });
  });

  test('Kafka 4 is a single KRaft broker that creates no topic by itself, reachable at kafka:9092', () => {
    const kafka = services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:4\.\d+\.\d+$/);
    const env = environmentOf(kafka, {});
    expect(env.KAFKA_PROCESS_ROLES!.split(',').sort()).toEqual(['broker', 'controller']);
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe(`${env.KAFKA_NODE_ID}@kafka:9093`);
    expect(env.KAFKA_ADVERTISED_LISTENERS!.split(',')).toContain('INTERNAL://kafka:9092');
    // Every listener asks for a login, and what no ACL allows is refused; the administrator alone is a super user.
    const protocols = env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP!.split(',').map((entry) => entry.split(':'));
    expect(protocols.map(([, protocol]) => protocol)).toEqual(protocols.map(() => 'SASL_PLAINTEXT'));
    for (const [listener] of protocols) {
      expect(env[`KAFKA_LISTENER_NAME_${listener}_PLAIN_SASL_JAAS_CONFIG`]).toBe(
        env.KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG,
      );
    }
    expect(Object.keys(kafkaPasswords(env.KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG!)).sort()).toEqual(
      ['admin', ...SERVICES.map((app) => app.name)].sort(),
    );
    expect(env.KAFKA_AUTHORIZER_CLASS_NAME).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    expect(env.KAFKA_SUPER_USERS).toBe('User:admin');
    expect(env.KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND).toBe('false');
    expect(env.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(env.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
    expect(env.CLUSTER_ID).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const init = services['kafka-topics'];
    expect(init.image).toBe(kafka.image);
    expect(init.restart).toBe('no');
    expect(init.depends_on).toEqual({ kafka: { condition: 'service_healthy' } });
  });

  test('the topic step declares every event type (and the dead letters) with its partitions and retention', () => {
    const calls = runKafkaStep(services['kafka-topics'], 'kafka-topics.sh', 'KAFKA_TOPICS_COMMAND');
    {
      const topics = new Map(
        calls.map((call) => {
          const words = call.split(' ');
          const option = (name: string) => words[words.indexOf(name) + 1];
          expect(words).toEqual(expect.arrayContaining(['--create', '--if-not-exists']));
          expect(option('--bootstrap-server')).toBe('kafka:9092');
          const retention = words.find((word) => word.startsWith('retention.ms='))!;
          return [
            option('--topic'),
            { partitions: Number(option('--partitions')), days: Number(retention.split('=')[1]) / 86_400_000 },
          ];
        }),
      );
      expect([...topics.keys()].sort()).toEqual(Object.keys(eventSchemas).sort());
      expect(topics.size).toBe(calls.length);
      expect(topics.get('ticket.checked-in')).toEqual({ partitions: 6, days: 7 });
      expect(topics.get('order.created')).toEqual({ partitions: 3, days: 7 });
      expect(topics.get('bus.dead-letter')).toEqual({ partitions: 3, days: 30 });

      // The same topics as in Kubernetes.
      const k8sTopics = parseAllDocuments(readFileSync(join(REPO_DIR, 'k8s/base/kafka/topics.yaml'), 'utf8'))
        .map((document) => document.toJS() as Obj)
        .filter((resource) => resource?.kind === 'KafkaTopic')
        .map((topic) => [
          topic.metadata.name,
          { partitions: topic.spec.partitions, days: Number(topic.spec.config['retention.ms']) / 86_400_000 },
        ]);
      expect(Object.fromEntries(topics)).toEqual(Object.fromEntries(k8sTopics));
    }
  });

  test('PgBouncer pools transactions in front of PostgreSQL and looks up each service role there', () => {
    const pgbouncer = services.pgbouncer;
    expect(pgbouncer.image).toMatch(/^edoburu\/pgbouncer:v\d+\.\d+\.\d+/);
    const env = environmentOf(pgbouncer, {});
    expect(env).toMatchObject({
      DB_HOST: 'postgres',
      DB_PORT: '5432',
      DB_NAME: 'ticketing',
      LISTEN_PORT: '6432',
      POOL_MODE: 'transaction',
      AUTH_TYPE: 'scram-sha-256',
      AUTH_USER: env.DB_USER,
      AUTH_QUERY: 'SELECT usename, passwd FROM pg_shadow WHERE usename=$1',
    });
    // The services' hot statements are named prepared statements: the pooler must keep them.
    expect(Number(env.MAX_PREPARED_STATEMENTS)).toBeGreaterThan(0);
    const owner = environmentOf(services['database-roles'], {}).DATABASE_URL!;
    expect(new URL(owner).username).toBe(env.DB_USER);
    expect(decodeURIComponent(new URL(owner).password)).toBe(env.DB_PASSWORD);
    expect(pgbouncer.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    // Every role a service logs in with is given its password by `database-roles`, which the services wait for.
    const passwords = environmentOf(services['database-roles'], {});
    for (const role of DATABASE_ROLES) expect(passwords[`${role.toUpperCase()}_DATABASE_PASSWORD`]).toBeTruthy();
  });

  test("the ACL step lets each service's Kafka user write only its own event types and read only what it consumes", () => {
    const step = services['kafka-acls'];
    expect(step.image).toBe(services.kafka.image);
    expect(step.restart).toBe('no');
    expect(step.depends_on).toEqual({ kafka: { condition: 'service_healthy' } });
    const calls = runKafkaStep(step, 'kafka-acls.sh', 'KAFKA_ACLS_COMMAND');
    const granted = new Set<string>();
    for (const call of calls) {
      const words = call.split(' ');
      const values = (name: string) => words.flatMap((word, i) => (words[i - 1] === name ? [word] : []));
      expect(words).toEqual(expect.arrayContaining(['--add', '--command-config']));
      expect(values('--bootstrap-server')).toEqual(['kafka:9092']);
      const [user] = values('--allow-principal').map((principal) => principal.replace(/^User:/, ''));
      for (const operation of values('--operation')) {
        for (const topic of values('--topic')) granted.add(`${user} ${operation} topic ${topic}`);
        for (const group of values('--group')) granted.add(`${user} ${operation} group ${group}`);
      }
    }
    const expected = new Set<string>();
    for (const app of SERVICES) {
      const producer = app.name.startsWith('tickets-') ? 'tickets' : app.name;
      for (const [topic, owners] of Object.entries(EVENT_OWNERS)) {
        if (!(owners as readonly string[]).includes(producer)) continue;
        for (const operation of ['Write', 'Describe']) expected.add(`${app.name} ${operation} topic ${topic}`);
      }
      const consumed: readonly string[] = (EVENT_CONSUMERS as Record<string, readonly string[]>)[app.name] ?? [];
      for (const topic of consumed)
        for (const operation of ['Read', 'Describe']) expected.add(`${app.name} ${operation} topic ${topic}`);
      if (consumed.length > 0)
        for (const operation of ['Read', 'Describe']) expected.add(`${app.name} ${operation} group ${app.name}`);
    }
    expect([...granted].sort()).toEqual([...expected].sort());
  });

  test("Redis starts with the ACL file of every process's user, written by a step the services wait for", () => {
    const step = services['redis-acl'];
    expect(step.restart).toBe('no');
    expect(step.command).toEqual(['node', 'services/platform/src/redis-users-main.ts', '/acl/users.acl']);
    const env = environmentOf(step, {});
    expect(Object.keys(env).sort()).toEqual(
      REDIS_USER_NAMES.map((user) => `${user.toUpperCase().replaceAll('-', '_')}_REDIS_PASSWORD`).sort(),
    );
    const dir = mkdtempSync(join(tmpdir(), 'redis-acl-'));
    try {
      const run = spawnSync(process.execPath, [join(REPO_DIR, step.command[1]), join(dir, 'users.acl')], {
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
      });
      expect(run.status).toBe(0);
      const users = readFileSync(join(dir, 'users.acl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[1]);
      expect(users.sort()).toEqual([...REDIS_USER_NAMES, 'default'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(services.redis.command).toEqual(['redis-server', '--aclfile', '/acl/users.acl']);
    expect(services.redis.volumes).toContain('redis-acl:/acl:ro');
    expect(step.volumes).toContain('redis-acl:/acl');
    expect(services.redis.depends_on).toEqual({ 'redis-acl': { condition: 'service_completed_successfully' } });
  });

  test('PostgreSQL 17, Redis 7 and Mailpit (inbox on host port 1080) are there', () => {
    expect(services.postgres.image).toMatch(/^postgres:17/);
    expect(environmentOf(services.postgres, {}).POSTGRES_DB).toBe('ticketing');
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit:v\d/);
    expect(services.mailpit.ports).toContain('1080:8025');
    expect(serviceConfig(DEFINITIONS.mail, environmentOf(services.mail, {})).SMTP_URL).toBe('smtp://mailpit:1025');
    expect(services.mail.depends_on.mailpit).toEqual({ condition: 'service_healthy' });
  });
});

describe('docker-compose.yml run with NODE_ENV=production', () => {
  const realKeys = generateKeyRing(PRODUCERS);
  const secrets: Env = {
    NODE_ENV: 'production',
    ...Object.fromEntries(
      Object.entries(realKeys.privateKeys).map(([name, key]) => [`${name.toUpperCase()}_SERVICE_KEY`, key]),
    ),
    SERVICE_PUBLIC_KEYS: realKeys.publicKeys,
    ADMIN_EMAIL: 'ana.souza@educacaofarma.com.br',
    ADMIN_PASSWORD: 'a-real-admin-password-0001',
    VERIFICATION_SECRET: 'a-real-verification-secret-0001',
    ASAAS_BASE_URL: 'https://api.asaas.com/v3',
    ASAAS_API_KEY: '$aact_prod_0123456789abcdef',
    ASAAS_WEBHOOK_TOKEN: 'a-real-webhook-token-0001',
    // Every password the file asks for (the database owner's and each role's, each Redis and Kafka user's).
    ...Object.fromEntries(
      [...COMPOSE_TEXT.matchAll(/\$\{([A-Z_]*PASSWORD):-/g)].map(([, name]) => [name!, `Qm7-vR2xKp9tLw4zN8sJ-${name}`]),
    ),
  };

  test('every service refuses to start on the development defaults, naming the setting', () => {
    // Development passwords (database, Redis, Kafka), the example administrator and the Asaas sandbox among them.
    const PASSWORDS = ['DATABASE_URL', 'DATABASE_DIRECT_URL', 'REDIS_URL', 'KAFKA_PASSWORD'];
    // The development key pairs: anyone could sign as any service with them.
    const KEYS = ['SERVICE_KEY', 'SERVICE_PUBLIC_KEYS'];
    const services = resolveCompose({ NODE_ENV: 'production' }).services as Obj;
    const refused = (app: (typeof SERVICES)[number]) => {
      try {
        serviceConfig(app.definition, environmentOf(services[app.name], {}));
        return [];
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.message
          .split('\n')
          .slice(1)
          .map((line) => line.trim().split(':')[0]);
      }
    };
    expect(Object.fromEntries(SERVICES.map((app) => [app.name, refused(app)]))).toEqual({
      identity: [...PASSWORDS, 'ADMIN_PASSWORD', 'VERIFICATION_SECRET', 'ADMIN_EMAIL', ...KEYS],
      catalog: [...PASSWORDS, ...KEYS],
      orders: [...PASSWORDS, ...KEYS],
      payments: [...PASSWORDS, 'ASAAS_API_KEY', 'ASAAS_WEBHOOK_TOKEN', ...KEYS, 'ASAAS_BASE_URL'],
      courtesy: [...PASSWORDS, ...KEYS],
      'tickets-verifier': [...PASSWORDS, ...KEYS],
      'tickets-worker': [...PASSWORDS, ...KEYS],
      mail: [...PASSWORDS, ...KEYS],
      certificates: [...PASSWORDS, ...KEYS],
    });
  });

  test('with the secrets given, every service boots and payments talk to Asaas itself', () => {
    const services = resolveCompose(secrets).services as Obj;
    for (const app of SERVICES) {
      expect(serviceConfig(app.definition, environmentOf(services[app.name], {})).NODE_ENV).toBe('production');
    }
    const payments = serviceConfig(DEFINITIONS.payments, environmentOf(services.payments, {}));
    expect(payments).toMatchObject({
      ASAAS_BASE_URL: 'https://api.asaas.com/v3',
      ASAAS_API_KEY: secrets.ASAAS_API_KEY,
    });
    expect(loadConfig(gatewayConfigSchema, environmentOf(services.gateway, {}))).toBeDefined();
  });
});
