import { Router } from '@koa/router';
import {
  captureLogs,
  dropSchemas,
  startPrivateRedis,
  startTestService,
  TEST_DATABASE_URL,
  testKeyRing,
  uniqueName,
  waitFor,
} from '@ticketing/testkit';
import { defineService, migrateService } from '../src/index.ts';

/** A service with one route that needs only the database and one that counts visits in Redis, if it can. */
const counter = defineService({
  name: 'counter',
  migrations: [
    { name: '001_notes', up: (db) => db.schema.createTable('notes', (t) => t.increments('id')) },
    { name: '002_text', up: (db) => db.schema.alterTable('notes', (t) => t.string('text')) },
  ],
  setup({ db, redis }) {
    const router = new Router();
    router.get('/notes', async (ctx) => {
      ctx.body = await db('notes').select('id', 'text');
    });
    router.get('/visits', async (ctx) => {
      // Redis down: no count, and the answer does not wait for it.
      ctx.body = { visits: await redis.incr('visits').catch(() => null) };
    });
    return { router };
  },
});

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

test('Redis down at boot: the service starts, serves, reports Redis down, and recovers when Redis comes', async () => {
  const redis = await startPrivateRedis();
  await redis.kill();
  const service = await startTestService(counter, { env: { REDIS_URL: redis.url } });
  try {
    expect(await get(`${service.url}/notes`)).toEqual({ status: 200, body: [] });
    expect(await get(`${service.url}/visits`)).toEqual({ status: 200, body: { visits: null } });
    expect(await get(`${service.url}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ok', checks: { database: 'ok', accepting: 'ok' } },
    });
    expect(await get(`${service.url}/healthz`)).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { database: 'ok', redis: 'down', bus: 'ok' } },
    });

    await redis.start();
    await waitFor(async () => (await get(`${service.url}/visits`)).body.visits === 1, { timeoutMs: 30_000 });
    await waitFor(async () => (await get(`${service.url}/healthz`)).body.status === 'ok', { timeoutMs: 30_000 });
  } finally {
    await service.stop();
    await redis.kill();
  }
});

test('without migrating at boot, a service refuses an older schema until the migrate entry has run', async () => {
  const schema = uniqueName('counter');
  const busSchema = uniqueName('bus');
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    DB_SCHEMA: schema,
    BUS_SCHEMA: busSchema,
    LOG_LEVEL: 'silent',
    ...testKeyRing.settings('counter'),
  };
  try {
    await expect(
      startTestService(counter, { busSchema, env: { DB_SCHEMA: schema, MIGRATE_ON_START: 'false' } }),
    ).rejects.toThrow(`schema ${schema} lacks the migrations`);

    // Two replicas' init containers at once: one migrates under the lock, the other finds nothing left to do.
    await Promise.all([migrateService(counter, env), migrateService(counter, env)]);
    const service = await startTestService(counter, {
      busSchema,
      env: { DB_SCHEMA: schema, MIGRATE_ON_START: 'false' },
    });
    try {
      expect(await get(`${service.url}/notes`)).toEqual({ status: 200, body: [] });
    } finally {
      await service.close();
    }
  } finally {
    await dropSchemas([schema, busSchema]);
  }
});

test('draining: out of rotation at once, still serving, each answer closing its connection', async () => {
  const logs = captureLogs();
  const service = await startTestService(counter, {
    logStream: logs.stream,
    env: { LOG_LEVEL: 'info', DRAIN_DELAY_MS: '2000' },
  });
  try {
    const before = await fetch(`${service.url}/notes`);
    expect(before.headers.get('connection')).toBe('keep-alive');
    const drained = service.drain!();
    expect(await get(`${service.url}/readyz`)).toEqual({
      status: 503,
      body: { status: 'down', checks: { database: 'ok', accepting: 'down' } },
    });
    const during = await fetch(`${service.url}/notes`);
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    await drained;
    expect(logs.lines.map((line) => line.msg)).toContain('draining');
  } finally {
    await service.stop();
  }
});
