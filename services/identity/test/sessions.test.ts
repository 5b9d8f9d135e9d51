import { SESSION_CACHE_SECONDS, sessionStateKey, startService, type SessionState } from '@ticketing/platform';
import { createTestIssuer, deleteRedisKeys, serviceAuthorization } from '@ticketing/testkit';
import { identityService } from '../src/index.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  claimsOf,
  headerOf,
  startIdentity,
  startNeighbour,
  type Identity,
} from './support.ts';

let identity: Identity;
let neighbour: Awaited<ReturnType<typeof startNeighbour>>;

beforeAll(async () => {
  identity = await startIdentity();
  neighbour = await startNeighbour(identity);
});
afterAll(async () => {
  await neighbour.service.stop();
  await identity.stop();
});

const logout = (token: string) => identity.request('POST', '/api/auth/logout', { token });
const sessionsOf = async (userId: string, caller = 'tickets') =>
  fetch(`${identity.service.url}/internal/sessions/${userId}`, {
    headers: { authorization: await serviceAuthorization(caller, 'identity') },
  });
/** Redis restarting empty, for this test's keys. */
const forgetCache = () => deleteRedisKeys(identity.redisPrefix);

const renew = async (token: string) => {
  const response = await identity.request('POST', '/api/auth/renew', { token });
  return { status: response.status, token: ((await response.json()) as { token?: string }).token };
};
/** Where every service stands on `token`: identity's own check and another service's. */
const answers = async (token: string) => ({
  me: (await identity.me(token)).status,
  neighbour: (await neighbour.whoami(token)).status,
});
const REFUSED = { me: 401, neighbour: 401 };
const ACCEPTED = { me: 200, neighbour: 200 };

test("'Sair' ends the whole chain everywhere, for good: the login's token and each renewal's; other sessions go on", async () => {
  const account = await identity.verified();
  const { token: otherBrowser } = await identity.login(account.email, account.password);
  const login = account.token;
  const first = (await renew(login)).token!;
  const latest = (await renew(first)).token!;
  expect(claimsOf(latest)).toMatchObject({ sid: claimsOf(login).sid, gen: 2 });
  expect(await answers(latest)).toEqual(ACCEPTED);

  const response = await logout(latest);
  expect(response.status).toBe(204);
  for (const token of [login, first, latest]) expect(await answers(token)).toEqual(REFUSED);
  expect((await logout(latest)).status).toBe(401);
  expect(await answers(otherBrowser)).toEqual(ACCEPTED);
  expect(identity.lines('user logged out')).toContainEqual(
    expect.objectContaining({ userId: account.id, sessionId: claimsOf(login).sid }),
  );

  // Kept in identity's database: a Redis that forgot it asks again and still refuses the chain.
  await forgetCache();
  for (const token of [login, first, latest]) expect(await answers(token)).toEqual(REFUSED);
  expect(await answers(otherBrowser)).toEqual(ACCEPTED);
  expect(await identity.service.db('sessions').where({ id: claimsOf(login).sid })).toEqual([]);
});

/** The session's last renewal happened long ago (moved in the store rather than waited for). */
const renewedLongAgo = (token: string) =>
  identity.service
    .db('sessions')
    .where({ id: claimsOf(token).sid })
    .update({ renewed_at: new Date(Date.now() - 60_000) });

test('a renewal supersedes the token it was given: that token is refused everywhere and renews nothing again', async () => {
  const account = await identity.verified();
  const renewed = (await renew(account.token)).token!;
  const latest = (await renew(renewed)).token!;
  await renewedLongAgo(latest);
  for (const superseded of [account.token, renewed]) {
    expect(await renew(superseded)).toEqual({ status: 401, token: undefined });
    expect(await answers(superseded)).toEqual(REFUSED);
  }
  expect(await answers(latest)).toEqual(ACCEPTED);
  const session = await identity.service
    .db('sessions')
    .where({ id: claimsOf(latest).sid })
    .first();
  expect(session.generation).toBe(2);
});

test('renewals of one token at once (two tabs) move its session on once, and each gets a token of the new generation', async () => {
  const account = await identity.verified();
  const results = await Promise.all(Array.from({ length: 6 }, () => renew(account.token)));
  expect(results.map((result) => result.status)).toEqual(Array(6).fill(200));
  expect(new Set(results.map((result) => claimsOf(result.token!).gen))).toEqual(new Set([1]));
  for (const result of results) expect(await answers(result.token!)).toEqual(ACCEPTED);
  expect(await answers(account.token)).toEqual(REFUSED);
  const session = await identity.service
    .db('sessions')
    .where({ id: claimsOf(account.token).sid })
    .first();
  expect(session.generation).toBe(1);
  expect(identity.unhandledErrors()).toEqual([]);
});

test('a second renewal of one token gets the same generation only just after the first; two generations back, never', async () => {
  const account = await identity.verified();
  const firstTab = (await renew(account.token)).token!;
  const secondTab = await renew(account.token);
  expect(secondTab.status).toBe(200);
  expect(claimsOf(secondTab.token!)).toMatchObject({ sid: claimsOf(firstTab).sid, gen: 1 });
  for (const token of [firstTab, secondTab.token!]) expect(await answers(token)).toEqual(ACCEPTED);

  const next = (await renew(firstTab)).token!;
  expect((await renew(account.token)).status).toBe(401);
  await renewedLongAgo(next);
  expect((await renew(firstTab)).status).toBe(401);
  expect(await answers(next)).toEqual(ACCEPTED);
});

test('a new password ends every session of the account; the browser that changed it gets a new one', async () => {
  const account = await identity.verified();
  const renewed = (await renew(account.token)).token!;
  const { token: otherBrowser } = await identity.login(account.email, account.password, { rememberMe: true });
  const change = await identity.request('PUT', '/api/profile/password', {
    token: renewed,
    body: { currentPassword: account.password, newPassword: 'outra-senha-forte-456' },
  });
  expect(change.status).toBe(200);
  const { token: fresh } = (await change.json()) as { token: string };
  for (const token of [account.token, renewed, otherBrowser]) expect(await answers(token)).toEqual(REFUSED);
  expect(await answers(fresh)).toEqual(ACCEPTED);
  expect(claimsOf(fresh).sid).not.toBe(claimsOf(renewed).sid);
  expect(await identity.service.db('sessions').where({ user_id: account.id })).toHaveLength(1);
});

test('a session state in Redis that identity did not sign, or altered, revives nothing and grants no role', async () => {
  const account = await identity.verified();
  const { token: loggedOut } = await identity.login(account.email, account.password);
  expect((await logout(loggedOut)).status).toBe(204);
  const key = sessionStateKey(account.id);
  const genuine = (await identity.service.redis.get(key))!;
  const revived = {
    roles: ['admin'],
    sessions: Object.fromEntries(
      [loggedOut, account.token].map((token) => [
        claimsOf(token).sid,
        { generation: 0, endsAt: Date.now() / 1000 + 3600 },
      ]),
    ),
  };
  const [header, , signature] = genuine.split('.');
  const altered = `${header}.${Buffer.from(JSON.stringify({ ...claimsOf(genuine), ...revived })).toString('base64url')}.${signature}`;
  const forged = await (await createTestIssuer()).sessionState(account.id, revived as SessionState);

  for (const value of [forged!, altered, JSON.stringify(revived)]) {
    await identity.service.redis.set(key, value);
    expect(await answers(loggedOut)).toEqual(REFUSED);
    await identity.service.redis.set(key, value);
    const whoami = await neighbour.whoami(account.token);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ id: account.id, roles: [], isAdmin: false });
  }
});

test('sessions end at their absolute end, which no renewal passes: a door shift, a day, a remembered week', async () => {
  const door = await startIdentity({
    env: { DOOR_STAFF_EMAILS: 'portaria@exemplo.com.br', SESSION_MAX_AGE_DOOR_STAFF: '10h' },
  });
  try {
    const staffer = await door.verified({ email: 'portaria@exemplo.com.br' });
    const buyer = await door.verified();
    const span = async (token: string) => {
      const session = await door.service
        .db('sessions')
        .where({ id: claimsOf(token).sid })
        .first();
      return (session.ends_at.getTime() - session.created_at.getTime()) / 3600_000;
    };
    const shift = (await door.login(staffer.email, staffer.password, { rememberMe: true })).token;
    expect(claimsOf(shift).roles).toEqual(['doorStaff']);
    expect(await span(shift)).toBe(10);
    expect(await span((await door.login(buyer.email, buyer.password)).token)).toBe(12);
    const week = (await door.login(buyer.email, buyer.password, { rememberMe: true })).token;
    expect(await span(week)).toBe(7 * 24);
    // The buyer joins the door staff: the remembered week shortens to a shift at its next renewal.
    const admin = await door.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const grant = await door.request('PUT', '/api/admin/users/roles', {
      token: admin.token,
      body: { email: buyer.email, roles: ['doorStaff'] },
    });
    expect(grant.status).toBe(200);
    expect((await door.request('POST', '/api/auth/renew', { token: week })).status).toBe(200);
    expect(await span(week)).toBe(10);

    // The shift is nearly over (moved in the store rather than waited for): renewing gives only what is left.
    const endsAt = new Date(Date.now() + 20 * 60_000);
    await door.service
      .db('sessions')
      .where({ id: claimsOf(shift).sid })
      .update({ ends_at: endsAt });
    const renewed = await door.request('POST', '/api/auth/renew', { token: shift });
    expect(renewed.status).toBe(200);
    const { token: last, expiresAt } = (await renewed.json()) as { token: string; expiresAt: string };
    expect(Number(claimsOf(last).exp)).toBe(Math.floor(endsAt.getTime() / 1000));
    expect(expiresAt).toBe(new Date(Number(claimsOf(last).exp) * 1000).toISOString());

    // Over: neither the token nor a renewal goes on.
    await door.service
      .db('sessions')
      .where({ id: claimsOf(shift).sid })
      .update({ ends_at: new Date(Date.now() - 1000) });
    await deleteRedisKeys(door.redisPrefix);
    expect((await door.me(last)).status).toBe(401);
    expect((await door.request('POST', '/api/auth/renew', { token: last })).status).toBe(401);
  } finally {
    await door.stop();
  }
});

test('every service may read where an account stands, signed by identity; nothing else may, and an unknown account is 404', async () => {
  const account = await identity.verified();
  const asVerifier = await sessionsOf(account.id);
  expect(asVerifier.status).toBe(200);
  const { state } = (await asVerifier.json()) as { state: string };
  expect(headerOf(state)).toMatchObject({ alg: 'EdDSA', kid: headerOf(account.token).kid, typ: 'session-state+jwt' });
  const claims = claimsOf(state);
  expect(claims).toMatchObject({
    sub: account.id,
    roles: [],
    sessions: { [String(claimsOf(account.token).sid)]: { generation: 0, endsAt: expect.any(Number) } },
  });
  expect(Number(claims.exp) - Number(claims.iat)).toBe(SESSION_CACHE_SECONDS);
  // A state is not a token.
  expect((await identity.me(state)).status).toBe(401);
  // Identity caches what it answers: verifiers only read session states.
  await identity.service.redis.del(sessionStateKey(account.id));
  await sessionsOf(account.id);
  expect(claimsOf((await identity.service.redis.get(sessionStateKey(account.id)))!)).toMatchObject({ sub: account.id });

  const noToken = await fetch(`${identity.service.url}/internal/sessions/${account.id}`);
  expect(noToken.status).toBe(401);
  // The gateway is no service of identity's: it holds no key identity knows.
  expect((await sessionsOf(account.id, 'gateway')).status).toBe(401);
  expect((await sessionsOf('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  expect((await sessionsOf('nao-e-uuid')).status).toBe(404);
});

test('identity down: other services answer 503 for a token they have not cached, never 401', async () => {
  const account = await identity.verified();
  const replica = await startService(identityService, identity.replicaEnv());
  const other = await startNeighbour(identity, replica.url);
  try {
    expect((await other.whoami(account.token)).status).toBe(200);
    // The keys are cached; the session state is not (Redis lost it) and identity does not answer.
    await replica.close();
    await forgetCache();
    const response = await other.whoami(account.token);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
    });
  } finally {
    await other.service.stop();
  }
});
