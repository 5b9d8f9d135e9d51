/**
 * The compose stack as `docker compose` reads it: every app built from the root Dockerfile with the settings it needs,
 * and the infrastructure it depends on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

// Parsed YAML: the shapes are checked by the assertions themselves.
type Obj = Record<string, any>;

const REPO_DIR = fileURLToPath(new URL('../..', import.meta.url));
const isPlainObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const APPS = [
  { name: 'identity', dir: 'services/identity', entry: 'services/identity/src/main.ts', port: 3001 },
  { name: 'catalog', dir: 'services/catalog', entry: 'services/catalog/src/main.ts', port: 3002 },
  { name: 'orders', dir: 'services/orders', entry: 'services/orders/src/main.ts', port: 3003 },
  { name: 'payments', dir: 'services/payments', entry: 'services/payments/src/main.ts', port: 3004 },
  { name: 'courtesy', dir: 'services/courtesy', entry: 'services/courtesy/src/main.ts', port: 3005 },
  { name: 'tickets-verifier', dir: 'services/tickets', entry: 'services/tickets/src/verifier.ts', port: 3006 },
  { name: 'tickets-worker', dir: 'services/tickets', entry: 'services/tickets/src/worker.ts', port: 3007 },
  { name: 'mail', dir: 'services/mail', entry: 'services/mail/src/main.ts', port: 3008 },
  { name: 'gateway', dir: 'gateway', entry: 'gateway/src/main.ts', port: 8080 },
];

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(REPO_DIR, 'docker-compose.yml'), 'utf8'), { merge: true }) as Obj;
  const services: Obj = compose.services;

  const environment = (service: Obj): Record<string, string> => {
    const env = service.environment ?? {};
    if (Array.isArray(env)) {
      return Object.fromEntries(env.map((entry: string) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
    }
    return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, String(value)]));
  };

  test.each(APPS.map((app) => [app.name, app]))(
    '%s is built from the root Dockerfile and waits for healthy dependencies',
    (_name, app) => {
      const service = services[app.name];
      expect(service).toBeDefined();
      expect(service.build?.context).toBe('.');
      expect(service.build?.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      expect(service.build?.args).toEqual(expect.objectContaining({ APP_DIR: app.dir, ENTRY: app.entry }));

      const env = environment(service);
      expect(env.BUS).toBe('kafka');
      expect(env.KAFKA_BROKERS).toBe('kafka:9092');
      expect(env.PORT).toBe(String(app.port));
      expect(env.DEV_TOOLS).toBe('false');
      if (app.name !== 'gateway') {
        // Each service logs in as the role named after its schema.
        const role = app.name.startsWith('tickets') ? 'tickets' : app.name;
        expect(env.DATABASE_URL).toMatch(new RegExp(`^postgres(ql)?://${role}:[^@]+@postgres:5432/ticketing$`));
        expect(env.REDIS_URL).toBe('redis://redis:6379');
        expect(env.IDENTITY_URL).toBe('http://identity:3001');
      }

      expect(Array.isArray(service.healthcheck?.test)).toBe(true);
      expect(service.healthcheck.test.join(' ')).toContain('process.env.HEALTHCHECK_PATH');
      if (app.name === 'gateway') expect(service.build.args.HEALTHCHECK_PATH).toBe('/readyz');
      expect(service.healthcheck.disable).not.toBe(true);

      const dependsOn: Obj = service.depends_on;
      expect(isPlainObject(dependsOn)).toBe(true);
      expect(Object.keys(dependsOn).length).toBeGreaterThan(0);
      expect(dependsOn.redis).toBeDefined();
      if (app.name !== 'gateway') {
        expect(Object.keys(dependsOn)).toEqual(expect.arrayContaining(['database-roles', 'redis', 'kafka']));
      }
      for (const [dependency, options] of Object.entries(dependsOn)) {
        expect(services[dependency]).toBeDefined();
        if (dependency === 'database-roles') {
          expect((options as Obj).condition).toBe('service_completed_successfully');
          continue;
        }
        expect((options as Obj).condition).toBe('service_healthy');
        expect(services[dependency].healthcheck?.test).toBeDefined();
      }
    },
  );

  test('the gateway is published on 8080 and knows every upstream', () => {
    const gateway = services.gateway;
    expect(gateway.ports.map(String)).toContain('8080:8080');
    const env = environment(gateway);
    expect(env.IDENTITY_URL).toBe('http://identity:3001');
    expect(env.TICKETS_VERIFIER_URL).toBe('http://tickets-verifier:3006');
    expect(env.STATIC_DIR).toBeTruthy();
  });

  test('Kafka is a single KRaft broker with auto topic creation, reachable at kafka:9092', () => {
    const kafka = services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:/);
    const env = environment(kafka);
    expect(env.KAFKA_PROCESS_ROLES.split(',').sort()).toEqual(['broker', 'controller']);
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe(`${env.KAFKA_NODE_ID}@kafka:9093`);
    expect(env.KAFKA_ADVERTISED_LISTENERS.split(',')).toContain('PLAINTEXT://kafka:9092');
    expect(env.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('true');
    expect(env.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
    expect(env.CLUSTER_ID).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  test('PostgreSQL 17, Redis 7 and Mailpit (inbox on host port 1080) are there', () => {
    expect(services.postgres.image).toMatch(/^postgres:17/);
    expect(environment(services.postgres).POSTGRES_DB).toBe('ticketing');
    expect(services.redis.image).toMatch(/^redis:7/);
    expect(services.mailpit.image).toMatch(/^axllent\/mailpit/);
    expect(services.mailpit.ports.map(String)).toContain('1080:8025');
    expect(environment(services.mail).SMTP_URL).toBe('smtp://mailpit:1025');
    expect(services.mail.depends_on.mailpit.condition).toBe('service_healthy');
    const payments = environment(services.payments);
    expect(payments.ASAAS_BASE_URL).toBe('https://api-sandbox.asaas.com/v3');
    expect(payments.ASAAS_API_KEY).toBe('${ASAAS_API_KEY:-}');
  });
});
