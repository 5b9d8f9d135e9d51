import { uniqueName } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { addressGroup } from '../src/client-ip.ts';
import { AUTH_LIMITED_PATHS, limitedPath } from '../src/rate-limit.ts';
import {
  closedPort,
  deleteRedisKeys,
  redisKeys,
  startAllFakeServices,
  startGateway,
  upstreamEnv,
  type FakeService,
} from './support.ts';

const LIMIT = 6;
const WINDOW_SECONDS = 60;
const TOO_MANY = { message: 'Muitas tentativas. Tente novamente em alguns minutos.' };
const prefix = `${uniqueName('gateway_limits')}:`;
const behindProxyPrefix = `${uniqueName('gateway_limits_proxy')}:`;
const limits = {
  AUTH_RATE_LIMIT_POINTS: String(LIMIT),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  COURTESY_RATE_LIMIT_POINTS: String(LIMIT),
  COURTESY_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
};

let services: Record<string, FakeService>;
let gateway: RunningGateway;
let behindProxy: RunningGateway;
let withoutRedis: RunningGateway;

beforeAll(async () => {
  services = await startAllFakeServices();
  const upstreams = upstreamEnv(services);
  gateway = await startGateway({ ...upstreams, ...limits, REDIS_PREFIX: prefix });
  behindProxy = await startGateway({ ...upstreams, ...limits, REDIS_PREFIX: behindProxyPrefix, TRUST_PROXY: '1' });
  withoutRedis = await startGateway({
    ...upstreams,
    ...limits,
    REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
    REDIS_PREFIX: prefix,
  });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), behindProxy?.close(), withoutRedis?.close()]);
  await Promise.all(Object.values(services ?? {}).map((service) => service.stop()));
  await deleteRedisKeys(prefix);
  await deleteRedisKeys(behindProxyPrefix);
});

const identityHits = (path: string) => services.identity!.hits.filter((hit) => hit.url === path).length;

function post(base: string, path: string, headers: Record<string, string> = {}) {
  return fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: 'ana@example.com', password: 'tentativa' }),
  });
}

/** Fires `count` requests at once and sorts the answers by status. */
async function burst(count: number, send: () => Promise<Response>) {
  const responses = await Promise.all(Array.from({ length: count }, send));
  const passed = responses.filter((response) => response.status === 200);
  const limited = responses.filter((response) => response.status === 429);
  return { passed, limited, responses };
}

async function expectTooMany(responses: Response[]) {
  for (const response of responses) {
    expect(await response.json()).toEqual(TOO_MANY);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  }
}

test('N+5 logins from one address: exactly N reach identity, 5 get 429 with Retry-After', async () => {
  const { passed, limited } = await burst(LIMIT + 5, () => post(gateway.url, '/api/auth/login'));
  expect(passed).toHaveLength(LIMIT);
  expect(limited).toHaveLength(5);
  await expectTooMany(limited);
  expect(identityHits('/api/auth/login')).toBe(LIMIT);
  // The counts live in Redis, shared by every gateway replica.
  expect(await redisKeys(prefix)).toContain(`${prefix}auth-limit:login:127.0.0.1`);
  const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
  expect(metrics).toMatch(/http_requests_total\{[^}]*route="identity"[^}]*status="429"[^}]*\} 5\n/);
});

test('spelling the login path differently or claiming another address does not get a new budget', async () => {
  const before = services.identity!.hits.length;
  for (const path of ['/api/auth/login', '/api/auth/login/', '/api/auth/LOGIN', '/api/auth/l%6Fgin']) {
    const response = await post(gateway.url, path);
    expect(response.status).toBe(429);
    await expectTooMany([response]);
  }
  const spoofed = await post(gateway.url, '/api/auth/login', { 'x-forwarded-for': '203.0.113.9' });
  expect(spoofed.status).toBe(429);
  expect(services.identity!.hits.length).toBe(before);
});

test.each(AUTH_LIMITED_PATHS.filter((path) => path !== '/api/auth/login'))(
  '%s has its own budget of N per address',
  async (path) => {
    const { passed, limited } = await burst(LIMIT + 2, () => post(gateway.url, path));
    expect(passed).toHaveLength(LIMIT);
    expect(limited).toHaveLength(2);
    await expectTooMany(limited);
    expect(identityHits(path)).toBe(LIMIT);
  },
);

test('other endpoints are not limited', async () => {
  // The door's phones share the venue's address: readings, syncs and renewals count against no address budget
  // (a renewal needs a valid token, and identity limits it per account).
  const calls: [string, string, string][] = [
    ['GET', '/api/auth/me', 'identity'],
    ['POST', '/api/auth/renew', 'identity'],
    ['GET', '/api/events', 'catalog'],
    ['POST', '/api/orders', 'orders'],
    ['POST', '/api/verify-ticket', 'tickets-verifier'],
    ['GET', '/api/door/events', 'catalog'],
    ['GET', '/api/door/events/3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69/tickets?after=7', 'tickets-verifier'],
    ['POST', '/api/door/readings', 'tickets-verifier'],
  ];
  for (const [method, path, upstream] of calls) {
    const before = services[upstream]!.hits.length;
    const { passed } = await burst(LIMIT + 5, () => fetch(gateway.url + path, { method }));
    expect(passed).toHaveLength(LIMIT + 5);
    expect(services[upstream]!.hits.length).toBe(before + LIMIT + 5);
  }
});

test('behind a trusted proxy each client address has its own budget, whatever it prepends', async () => {
  const from = (ip: string, claimed?: string) => ({ 'x-forwarded-for': claimed ? `${claimed}, ${ip}` : ip });
  const first = await burst(LIMIT + 1, () => post(behindProxy.url, '/api/auth/login', from('198.51.100.7')));
  expect(first.passed).toHaveLength(LIMIT);
  expect(first.limited).toHaveLength(1);

  const disguised = await post(behindProxy.url, '/api/auth/login', from('198.51.100.7', '192.0.2.1'));
  expect(disguised.status).toBe(429);

  const other = await post(behindProxy.url, '/api/auth/login', from('198.51.100.8'));
  expect(other.status).toBe(200);
  expect(await redisKeys(behindProxyPrefix)).toEqual(
    expect.arrayContaining([
      `${behindProxyPrefix}auth-limit:login:198.51.100.7`,
      `${behindProxyPrefix}auth-limit:login:198.51.100.8`,
    ]),
  );
});

test('with Redis unreachable login still works and is still limited (in-memory fallback)', async () => {
  const before = identityHits('/api/auth/login');
  const { passed, limited } = await burst(LIMIT + 5, () => post(withoutRedis.url, '/api/auth/login'));
  expect(passed).toHaveLength(LIMIT);
  expect(limited).toHaveLength(5);
  await expectTooMany(limited);
  expect(identityHits('/api/auth/login')).toBe(before + LIMIT);
});

test('courtesy code look-ups and redemptions share one budget per address; the admin list is not limited', async () => {
  const courtesyHits = () => services.courtesy!.hits.length;
  const before = courtesyHits();
  const lookUp = (i: number) => fetch(`${gateway.url}/api/courtesy-links/CDPI${10000 + i}ABC`);
  const looked = await Promise.all(Array.from({ length: LIMIT - 2 }, (_, i) => lookUp(i)));
  expect(looked.map((response) => response.status)).toEqual(Array(LIMIT - 2).fill(200));
  const { passed, limited } = await burst(4, () => post(gateway.url, '/api/courtesy/r%65deem'));
  expect(passed).toHaveLength(2);
  expect(limited).toHaveLength(2);
  await expectTooMany(limited);
  expect((await lookUp(99)).status).toBe(429);
  expect(courtesyHits()).toBe(before + LIMIT);
  expect(await redisKeys(prefix)).toContain(`${prefix}courtesy-limit:code:127.0.0.1`);
  const lists = await Promise.all(
    Array.from({ length: LIMIT + 2 }, () => fetch(`${gateway.url}/api/courtesy-links?page=1`)),
  );
  expect(lists.map((response) => response.status)).toEqual(Array(LIMIT + 2).fill(200));
});

test('the limited paths are recognised however the router would read them', () => {
  expect(limitedPath('/api/auth/login')).toBe('/api/auth/login');
  expect(limitedPath('/api/auth/Verify-Code/')).toBe('/api/auth/verify-code');
  expect(limitedPath('/api/auth/resend%2Dcode')).toBe('/api/auth/resend-code');
  expect(limitedPath('/api/auth/me')).toBeUndefined();
  expect(limitedPath('/api/auth/login/extra')).toBeUndefined();
  expect(limitedPath('/api/auth/%E0%A4%A')).toBeUndefined();
});

test('an IPv6 client is counted by its /64, an IPv4 client by its address', () => {
  expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
  expect(addressGroup('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
  expect(addressGroup('2001:db8:aa:bb::99')).toBe(addressGroup('2001:db8:aa:bb:ffff::1'));
  expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressGroup('::1')).toBe('0:0:0:0::/64');
});
