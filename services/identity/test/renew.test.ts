import { startService } from '@ticketing/platform';
import { deleteRedisKeys } from '@ticketing/testkit';
import type { RenewView } from '@ticketing/proto';
import { identityService } from '../src/index.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, claimsOf, startIdentity, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity({ env: { TOKEN_RENEWALS_PER_HOUR: '3' } });
});
afterAll(() => identity.stop());

const SESSION_INVALID = { message: 'Sessão inválida ou expirada. Faça login novamente.' };
const VENUE_WIFI = '10.200.0.1';
const renew = (token: string, ip = VENUE_WIFI) => identity.request('POST', '/api/auth/renew', { token, ip });
const now = () => Math.floor(Date.now() / 1000);

async function renewed(token: string): Promise<RenewView> {
  const response = await renew(token);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as RenewView;
}

test('a valid token is traded for the next one of its session: same account, roles and end; the old one is refused', async () => {
  const admin = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const fresh = await renewed(admin.token);

  const [before, after] = [claimsOf(admin.token), claimsOf(fresh.token)];
  expect(after).toMatchObject({
    sub: before.sub,
    email: ADMIN_EMAIL,
    roles: ['admin', 'courtesyManager'],
    sid: before.sid,
    gen: 1,
  });
  expect(after.jti).not.toBe(before.jti);
  // A day's session: the renewal gives a new token, never more time.
  expect(after.exp).toBe(before.exp);
  const session = await identity.service.db('sessions').where({ id: before.sid }).first();
  expect(before.exp).toBe(Math.floor(session.ends_at.getTime() / 1000));
  expect(session.ends_at.getTime() - session.created_at.getTime()).toBe(12 * 3600 * 1000);
  expect(fresh.expiresAt).toBe(new Date(Number(after.exp) * 1000).toISOString());
  expect((await identity.me(fresh.token)).status).toBe(200);
  expect((await identity.me(admin.token)).status).toBe(401);
  expect(identity.lines('session renewed')).toContainEqual(
    expect.objectContaining({ userId: before.sub, sessionId: before.sid, generation: 1 }),
  );

  const person = await identity.verified();
  const remembered = await identity.login(person.email, person.password, { rememberMe: true });
  const week = claimsOf((await renewed(remembered.token)).token);
  expect(week).toMatchObject({ rmb: true, exp: claimsOf(remembered.token).exp });
  await identity.expectTokenToLastItsSession(remembered.token, 7 * 24 * 3600);
});

test('a token logged out, expired, ended by a password change or of a deleted account renews nothing', async () => {
  const loggedOut = await identity.verified();
  expect((await identity.request('POST', '/api/auth/logout', { token: loggedOut.token })).status).toBe(204);

  const expiring = await identity.verified();
  const { sid, gen } = claimsOf(expiring.token);
  const claims = { sub: expiring.id, email: expiring.email, name: 'Maria da Silva', roles: [], sid, gen };
  const expired = await identity.signWithServiceKey({ ...claims, iat: now() - 13 * 3600, exp: now() - 3600 });

  const changed = await identity.verified();
  const change = await identity.request('PUT', '/api/profile/password', {
    token: changed.token,
    body: { currentPassword: changed.password, newPassword: 'outra-senha-456' },
  });
  expect(change.status).toBe(200);

  const deleted = await identity.verified();
  const removal = await identity.request('DELETE', '/api/profile', {
    token: deleted.token,
    body: { password: deleted.password },
  });
  expect(removal.status).toBe(200);

  for (const token of [loggedOut.token, expired, changed.token, deleted.token, 'nao-e-um-token']) {
    const response = await renew(token);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(SESSION_INVALID);
  }
  expect((await identity.request('POST', '/api/auth/renew')).status).toBe(401);
});

test('renewals are limited per account, never per address: staff on one Wi-Fi go on', async () => {
  const door = await identity.verified();
  let token = door.token;
  for (let renewal = 0; renewal < 3; renewal++) token = (await renewed(token)).token;

  const refused = await renew(token);
  expect(refused.status).toBe(429);
  expect(await refused.json()).toEqual({ message: 'Muitas tentativas. Tente novamente em alguns minutos.' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  // The token in hand still works; another account behind the same address still renews.
  expect((await identity.me(token)).status).toBe(200);
  const colleague = await identity.verified();
  expect((await renew(colleague.token)).status).toBe(200);
  expect(identity.lines('session renewal throttled')).toContainEqual(expect.objectContaining({ userId: door.id }));
});

test("identity's store down: a renewal is answered 503, never 401", async () => {
  const account = await identity.verified();
  const replica = await startService(identityService, identity.replicaEnv());
  try {
    const url = `${replica.url}/api/auth/renew`;
    const call = () => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${account.token}` } });
    expect((await call()).status).toBe(200);

    // The replica has the keys in memory and Redis has the session state: the account itself cannot be read.
    await replica.db.destroy();
    const withCache = await call();
    expect(withCache.status).toBe(503);
    expect(await withCache.json()).toEqual({
      message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
    });
    // Redis forgot the state too: the session check itself cannot run.
    await deleteRedisKeys(identity.redisPrefix);
    expect((await call()).status).toBe(503);
  } finally {
    await replica.close();
  }
});
