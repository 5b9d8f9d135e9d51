import { startPrivateRedis, waitFor } from '@ticketing/testkit';
import { startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

/**
 * Redis holds only caches and counters: stopping it must not log anyone out, and starting it again empty must not
 * bring back a session that was ended. The system runs against a Redis of its own, which this test stops.
 */
let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
let system: Awaited<ReturnType<typeof startSystem>>;

beforeAll(async () => {
  redis = await startPrivateRedis();
  system = await startSystem({ redisUrl: redis.url });
});
afterAll(async () => {
  await system.stop();
  await redis.kill();
});

test('Redis stops: sessions go on (or wait with a 503), never a logout; back empty, ended sessions stay ended', async () => {
  const buyer = await verifiedBuyer(system);
  const loggedOut = await system.call('POST', '/api/auth/login', {
    body: { email: buyer.email, password: buyer.password },
  });
  expect((await system.call('POST', '/api/auth/logout', { token: loggedOut.body.token })).status).toBe(204);
  const signedIn = [
    ['GET', '/api/auth/me'],
    ['GET', '/api/orders'],
  ] as const;
  for (const [method, path] of signedIn)
    expect((await system.call(method, path, { token: buyer.token })).status).toBe(200);

  await redis.kill();
  for (const [method, path] of signedIn) {
    const answer = await system.call(method, path, { token: buyer.token });
    expect({ path, loggedOut: answer.status === 401 }).toEqual({ path, loggedOut: false });
    expect([200, 503]).toContain(answer.status);
    const ended = await system.call(method, path, { token: loggedOut.body.token });
    expect([401, 503]).toContain(ended.status);
  }
  // Identity reads session states from its own database: its answers need no Redis at all.
  expect((await system.call('GET', '/api/auth/me', { token: buyer.token })).status).toBe(200);
  expect((await system.call('GET', '/api/auth/me', { token: loggedOut.body.token })).status).toBe(401);

  // Redis comes back with nothing in it.
  await redis.start();
  await waitFor(async () => (await system.call('GET', '/api/orders', { token: buyer.token })).status === 200);
  for (const [method, path] of signedIn) {
    expect((await system.call(method, path, { token: buyer.token })).status).toBe(200);
    expect((await system.call(method, path, { token: loggedOut.body.token })).status).toBe(401);
  }
});
