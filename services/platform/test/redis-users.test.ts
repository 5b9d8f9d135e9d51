import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { catalogService } from '@ticketing/catalog';
import {
  REDIS_USER_NAMES,
  provisionRedisUsers,
  redisAclFile,
  writeSessionState,
  type RedisUser,
} from '../src/index.ts';
import { TEST_REDIS_URL, deleteRedisKeys, startTestService, uniqueName, waitFor } from '@ticketing/testkit';

const userPrefix = `${uniqueName('acl')}-`;
const keyPrefix = `${uniqueName('acl')}:`;
const passwords = Object.fromEntries(REDIS_USER_NAMES.map((user) => [user, randomBytes(12).toString('hex')])) as Record<
  RedisUser,
  string
>;
let urls: Record<RedisUser, string>;
/** A connection as each service's user, with the services' key prefix, as createRedis makes it. */
const as = {} as Record<RedisUser, Redis>;
const clients: Redis[] = [];

/** Runs a command and answers its reply, or the first word of Redis's refusal. */
const attempt = (work: Promise<unknown>) => work.catch((error: Error) => error.message.split(' ')[0]);

beforeAll(async () => {
  urls = await provisionRedisUsers({ adminUrl: TEST_REDIS_URL, passwords, userPrefix, keyPrefix });
  for (const user of REDIS_USER_NAMES) {
    as[user] = new Redis(urls[user], { keyPrefix, maxRetriesPerRequest: 1, lazyConnect: true });
    clients.push(as[user]);
    await as[user].connect();
  }
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  const admin = new Redis(TEST_REDIS_URL);
  for (const user of REDIS_USER_NAMES) await admin.call('ACL', 'DELUSER', `${userPrefix}${user}`);
  admin.disconnect();
  await deleteRedisKeys(keyPrefix);
});

test('session states: identity writes them, services read them, the gateway neither', async () => {
  const userId = 'a6f4c1de-0000-4000-8000-000000000001';
  await writeSessionState(as.identity, userId, 'estado-assinado');
  expect(await as.catalog.get(`auth:session:${userId}`)).toBe('estado-assinado');
  expect(await attempt(as.catalog.set(`auth:session:${userId}`, 'forjado'))).toBe('NOPERM');
  expect(await attempt(as.orders.del(`auth:session:${userId}`))).toBe('NOPERM');
  // The cache write a verifier tries on a miss is a script: refused as well.
  expect(
    await attempt(as.mail.eval("return redis.call('SET', KEYS[1], ARGV[1])", 1, `auth:session:${userId}`, 'x')),
  ).toBe('NOPERM');
  expect(await attempt(as.gateway.set(`auth:session:${userId}`, 'forjado'))).toBe('NOPERM');
  expect(await attempt(as.gateway.get(`auth:session:${userId}`))).toBe('NOPERM');
  expect(await as.identity.get(`auth:session:${userId}`)).toBe('estado-assinado');
});

test("the gateway keeps its rate limits and nothing else; a service can't touch another's keys", async () => {
  const limiter = new RateLimiterRedis({
    storeClient: as.gateway,
    keyPrefix: 'auth-limit',
    points: 2,
    duration: 60,
  });
  expect((await limiter.consume('203.0.113.7')).remainingPoints).toBe(1);
  expect(await as.gateway.get('auth-limit:203.0.113.7')).toBe('1');
  expect(await attempt(as.gateway.set('orders:check-status:1', '1'))).toBe('NOPERM');
  expect(await attempt(as.gateway.set('door-searches-limit:1', '1'))).toBe('NOPERM');

  expect(await as.orders.set('orders:check-status:1', '1')).toBe('OK');
  expect(await attempt(as.catalog.get('orders:check-status:1'))).toBe('NOPERM');
  expect(await attempt(as.orders.set('identity:login:ip:203.0.113.7', '1'))).toBe('NOPERM');
  expect(await attempt(as['tickets-verifier'].set('auth-limit:203.0.113.7', '0'))).toBe('NOPERM');
  expect(await as['tickets-verifier'].set('door-searches-limit:u1', '1')).toBe('OK');
});

test('no user runs commands over the whole server, nor publishes outside its channels', async () => {
  for (const user of REDIS_USER_NAMES) {
    expect([user, await attempt(as[user].flushall())]).toEqual([user, 'NOPERM']);
    expect([user, await attempt(as[user].keys('*'))]).toEqual([user, 'NOPERM']);
    expect([user, await attempt(as[user].config('GET', 'requirepass'))]).toEqual([user, 'NOPERM']);
    expect([user, await attempt(as[user].call('ACL', 'SETUSER', user, 'on', '+@all', '~*'))]).toEqual([user, 'NOPERM']);
  }
  // The door's notices: the worker publishes them, each door API listens on its own connection.
  const listener = as['tickets-verifier'].duplicate();
  clients.push(listener);
  expect(await listener.psubscribe(`${keyPrefix}door:changed:*`)).toBe(1);
  expect(await as['tickets-worker'].publish(`${keyPrefix}door:changed:e1`, '')).toBe(1);
  expect(await attempt(as.orders.publish(`${keyPrefix}door:changed:e1`, ''))).toBe('NOPERM');
});

test('a service runs on its own user', async () => {
  const catalog = await startTestService(catalogService, {
    redisPrefix: keyPrefix,
    env: { REDIS_URL: urls.catalog },
  });
  try {
    expect((await fetch(`${catalog.url}/readyz`)).status).toBe(200);
    expect(await attempt(catalog.redis.set('auth:session:u1', 'forjado'))).toBe('NOPERM');
  } finally {
    await catalog.stop();
  }
});

test('the ACL file of the deployments loads into a Redis that then holds exactly those users', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'redis-acl-'));
  writeFileSync(join(dir, 'users.acl'), redisAclFile(passwords));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const server: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--aclfile', join(dir, 'users.acl')],
    { stdio: 'ignore' },
  );
  try {
    // Health probes connect without a user: PING only (not even INFO, the client's ready check).
    const anonymous = new Redis({
      port,
      lazyConnect: true,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    clients.push(anonymous);
    await waitFor(async () =>
      anonymous.connect().then(
        () => true,
        () => false,
      ),
    );
    expect(await anonymous.ping()).toBe('PONG');
    expect(await attempt(anonymous.get('auth:session:u1'))).toBe('NOPERM');
    const gateway = new Redis({ port, username: 'gateway', password: passwords.gateway });
    clients.push(gateway);
    expect(await gateway.set('auth-limit:203.0.113.7', '1')).toBe('OK');
    expect(await attempt(gateway.set('auth:session:u1', 'x'))).toBe('NOPERM');
    const identity = new Redis({ port, username: 'identity', password: passwords.identity });
    clients.push(identity);
    expect(await identity.set('auth:session:u1', 'x')).toBe('OK');
  } finally {
    server.kill('SIGTERM');
  }
});
