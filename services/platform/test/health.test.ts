import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '../src/db.ts';
import { createHttpApp } from '../src/http/app.ts';
import { databaseCheck, monitorDependencies, type DependencyMonitor } from '../src/http/health.ts';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/metrics.ts';
import { captureLogs, TEST_DATABASE_URL } from '@ticketing/testkit';

/** Dependencies whose answers the test decides. */
const up = { database: true, redis: true, bus: true };
const check = (name: keyof typeof up) => async () => {
  if (!up[name]) throw new Error(`${name} unreachable`);
};

const logs = captureLogs();
const metrics = createMetrics('health-probe');
let monitor: DependencyMonitor;
let server: Server;
let base: string;

beforeAll(async () => {
  const logger = createLogger('health-probe', 'info', logs.stream);
  monitor = monitorDependencies(
    { database: check('database'), redis: check('redis'), bus: check('bus') },
    { logger, metrics, everyMs: 3_600_000 },
  );
  await monitor.probe();
  const app = createHttpApp({
    logger,
    metrics,
    health: { readiness: { database: check('database') }, dependencies: monitor },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  monitor.close();
  await new Promise((resolve) => server.close(resolve));
});

const get = async (path: string) => {
  const response = await fetch(base + path);
  return { status: response.status, body: await response.json() };
};
const gauge = async (dependency: string) => {
  const text = await (await fetch(`${base}/metrics`)).text();
  return new RegExp(`dependency_up\\{[^}]*dependency="${dependency}"[^}]*\\} (\\d)`).exec(text)?.[1];
};
const transitions = (dependency: string) =>
  logs.lines.filter((line) => line.dependency === dependency).map((line) => `${line.level}:${line.msg}`);

test('Redis and the bus down: still ready and alive, /healthz degraded, one warning per change', async () => {
  up.redis = false;
  up.bus = false;
  for (let i = 0; i < 3; i++) await monitor.probe();
  expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok' } } });
  expect(await get('/healthz')).toEqual({
    status: 200,
    body: { status: 'degraded', checks: { database: 'ok', redis: 'down', bus: 'down' } },
  });
  expect(await gauge('redis')).toBe('0');
  expect(await gauge('database')).toBe('1');
  expect(transitions('redis')).toEqual(['40:dependency down']);

  up.redis = true;
  up.bus = true;
  for (let i = 0; i < 3; i++) await monitor.probe();
  expect(await get('/healthz')).toEqual({
    status: 200,
    body: { status: 'ok', checks: { database: 'ok', redis: 'ok', bus: 'ok' } },
  });
  expect(await gauge('redis')).toBe('1');
  expect(transitions('redis')).toEqual(['40:dependency down', '30:dependency back']);
});

test('the database down takes the process out of rotation, and liveness stays 200', async () => {
  up.database = false;
  try {
    await monitor.probe();
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'down', checks: { database: 'down' } } });
    const live = await get('/healthz');
    expect(live).toEqual({
      status: 200,
      body: { status: 'degraded', checks: expect.objectContaining({ database: 'down' }) },
    });
  } finally {
    up.database = true;
  }
  expect((await get('/readyz')).status).toBe(200);
});

test('a database pool busy with a crowd keeps the process ready; a quiet one is asked, and down when it is down', async () => {
  // Two connections and twenty callers holding each for 300 ms: a probe asked now would wait about 3 s in line.
  const db = createDb(TEST_DATABASE_URL, 'public', 2);
  const database = databaseCheck(db);
  let crowding = true;
  const caller = async () => {
    while (crowding) await db.raw('select pg_sleep(0.3)');
  };
  const callers = Array.from({ length: 20 }, caller);
  try {
    await new Promise((resolve) => db.once('query-response', resolve));
    const inLine = db.raw('select 1').then(() => 'in line');
    const checked = database().then(() => 'checked');
    expect(await Promise.race([inLine, checked])).toBe('checked');
    await inLine;
  } finally {
    crowding = false;
    await Promise.all(callers);
  }
  const unreachable = createDb('postgres://127.0.0.1:1/none', 'public', 2);
  try {
    await expect(databaseCheck(unreachable)()).rejects.toThrow();
  } finally {
    await unreachable.destroy();
    await db.destroy();
  }
});
