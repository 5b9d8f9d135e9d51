import { startService } from '@ticketing/platform';
import { deleteRedisKeys, serviceAuthorization } from '@ticketing/platform/testing';
import { identityService } from '../src/index.ts';
import { startIdentity, startNeighbour, type Identity } from './support.ts';

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
const sessionsOf = async (userId: string, caller = 'tickets-verifier') =>
  fetch(`${identity.service.url}/internal/sessions/${userId}`, {
    headers: { authorization: await serviceAuthorization(caller, 'identity') },
  });
/** Redis restarting empty, for this test's keys. */
const forgetCache = () => deleteRedisKeys(identity.redisPrefix);

test("'Sair' ends that token everywhere, for good; the account's other sessions go on", async () => {
  const account = await identity.verified();
  const { token: otherBrowser } = await identity.login(account.email, account.password);
  expect((await neighbour.whoami(account.token)).status).toBe(200);

  const response = await logout(account.token);
  expect(response.status).toBe(204);
  expect((await identity.me(account.token)).status).toBe(401);
  expect((await neighbour.whoami(account.token)).status).toBe(401);
  expect((await logout(account.token)).status).toBe(401);
  expect((await neighbour.whoami(otherBrowser)).status).toBe(200);
  expect(identity.lines('user logged out')).toContainEqual(expect.objectContaining({ userId: account.id }));

  // Kept in identity's database: a Redis that forgot it asks again and still refuses the token.
  await forgetCache();
  expect((await neighbour.whoami(account.token)).status).toBe(401);
  expect((await neighbour.whoami(otherBrowser)).status).toBe(200);
  const [revoked] = await identity.service.db('revoked_tokens').where({ user_id: account.id });
  expect(revoked.expires_at.getTime()).toBeGreaterThan(Date.now() + 11 * 3600_000);
});

test('every service may read where an account stands; nobody else, and an unknown account is 404', async () => {
  const account = await identity.verified();
  const asVerifier = await sessionsOf(account.id);
  expect(asVerifier.status).toBe(200);
  expect(await asVerifier.json()).toEqual({ version: 0, revoked: [] });

  const noToken = await fetch(`${identity.service.url}/internal/sessions/${account.id}`);
  expect(noToken.status).toBe(401);
  const stranger = await sessionsOf(account.id, 'gateway');
  expect(stranger.status).toBe(403);
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
