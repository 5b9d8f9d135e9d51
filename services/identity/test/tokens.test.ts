import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestIssuer } from '@ticketing/testkit';
import { rotateSigningKey } from '../src/index.ts';
import { claimsOf, headerOf, startIdentity, startNeighbour, tamper, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const SESSION_INVALID = { message: 'Sessão inválida ou expirada. Faça login novamente.' };
const now = () => Math.floor(Date.now() / 1000);
const jwks = async () =>
  (await (await fetch(`${identity.service.url}/.well-known/jwks.json`)).json()) as {
    keys: Record<string, unknown>[];
  };
const kids = async () => (await jwks()).keys.map((key) => key.kid);
const run = promisify(execFile);
const ROTATE_SCRIPT = fileURLToPath(new URL('../src/rotate-key.ts', import.meta.url));

/** Runs the rotation script against this service's schema; returns the key it created. */
async function rotateWithScript(...args: string[]) {
  const { stdout } = await run(process.execPath, [ROTATE_SCRIPT, ...args], {
    env: { ...process.env, ...identity.replicaEnv({ LOG_LEVEL: 'info' }), NODE_OPTIONS: '' },
  });
  const line = stdout
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .find((entry) => entry.msg === 'signing key rotated');
  expect(line).toBeDefined();
  return line as { kid: string; activatesAt: string; retired: string[] };
}

test('the public keys are published outside /api, without their private part', async () => {
  const response = await fetch(`${identity.service.url}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('public, max-age=60');
  const [row] = await identity.service.db('signing_keys');
  expect(await response.json()).toEqual({
    keys: [{ kty: 'OKP', crv: 'Ed25519', x: row.public_jwk.x, kid: row.kid, alg: 'EdDSA', use: 'sig' }],
  });
  expect(row.private_jwk.d).toEqual(expect.any(String));
  expect((await identity.request('GET', '/api/.well-known/jwks.json')).status).toBe(404);
});

test('a token with one character changed, or claims changed, or signed by another key is refused', async () => {
  const account = await identity.verified();
  const neighbour = await startNeighbour(identity);
  try {
    expect((await identity.me(account.token)).status).toBe(200);
    expect((await neighbour.whoami(account.token)).status).toBe(200);

    const [header, payload, signature] = account.token.split('.');
    const promoted = Buffer.from(
      JSON.stringify({ ...claimsOf(account.token), roles: ['admin'], sub: account.id }),
    ).toString('base64url');
    const foreign = await (await createTestIssuer()).sign({ id: account.id, email: account.email });
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', kid: headerOf(account.token).kid })).toString('base64url')}.${payload}.`;
    const forged = [
      tamper(account.token),
      `${header}.${promoted}.${signature}`,
      foreign,
      unsigned,
      'nao.e.um-token',
      'x'.repeat(4000),
    ];
    for (const token of forged) {
      const me = await identity.me(token);
      expect({ token, status: me.status, body: await me.json() }).toEqual({
        token,
        status: 401,
        body: SESSION_INVALID,
      });
      expect((await neighbour.whoami(token)).status).toBe(401);
    }
    const noScheme = await identity.request('GET', '/api/auth/me', { headers: { authorization: account.token } });
    expect(noScheme.status).toBe(401);
    expect(await noScheme.json()).toEqual({ message: 'Não autenticado. Faça login para continuar.' });
  } finally {
    await neighbour.service.stop();
  }
});

test('an expired token, or one for another issuer or audience, is refused', async () => {
  const account = await identity.verified();
  const { sid, gen } = claimsOf(account.token);
  const claims = { sub: account.id, email: account.email, name: 'Maria da Silva', roles: [], sid, gen };
  const valid = await identity.signWithServiceKey({ ...claims, iat: now() - 60, exp: now() + 3600 });
  expect((await identity.me(valid)).status).toBe(200);

  const expired = await identity.signWithServiceKey({ ...claims, iat: now() - 13 * 3600, exp: now() - 3600 });
  const otherIssuer = await identity.signWithServiceKey({ ...claims, exp: now() + 3600 }, { issuer: 'outro' });
  const otherAudience = await identity.signWithServiceKey({ ...claims, exp: now() + 3600 }, { audience: 'outro' });
  for (const token of [expired, otherIssuer, otherAudience]) {
    const me = await identity.me(token);
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual(SESSION_INVALID);
  }
});

test('after a rotation new tokens carry the new key, older ones keep working, the key set lists both', async () => {
  const account = await identity.verified();
  const before = account.token;
  const oldKid = headerOf(before).kid;

  const rotation = await rotateSigningKey({ db: identity.service.db, logger: identity.service.logger });
  expect(rotation.retired).toEqual([oldKid]);
  expect(rotation.kid).not.toBe(oldKid);

  const { token: after } = await identity.login(account.email, account.password);
  expect(headerOf(after).kid).toBe(rotation.kid);
  expect(await kids()).toEqual([rotation.kid, oldKid]);
  for (const token of [before, after]) expect((await identity.me(token)).status).toBe(200);

  const neighbour = await startNeighbour(identity);
  try {
    for (const token of [before, after]) expect((await neighbour.whoami(token)).status).toBe(200);
  } finally {
    await neighbour.service.stop();
  }

  // Once the longest session it signed has expired (7 days), a retired key leaves the key set.
  const [retired] = await identity.service.db('signing_keys').where({ kid: oldKid });
  expect(retired.retired_at).toBeInstanceOf(Date);
  await identity.service
    .db('signing_keys')
    .where({ kid: oldKid })
    .update({ retired_at: new Date(Date.now() - 7 * 24 * 3600 * 1000 - 1000) });
  expect(await kids()).toEqual([rotation.kid]);
});

test('the rotation script publishes the new key first and signs with it from its activation', async () => {
  const account = await identity.verified();
  const signingBefore = headerOf(account.token).kid;
  const rotation = await rotateWithScript();
  const delay = new Date(rotation.activatesAt).getTime() - Date.now();
  expect(delay).toBeGreaterThan(50_000);
  expect(delay).toBeLessThanOrEqual(60_000);
  expect(rotation.retired).toEqual([signingBefore]);

  // Published at once, not yet signing: a service that fetches the key set now already knows the new key.
  expect(await kids()).toEqual([rotation.kid, signingBefore]);
  const { token: meanwhile } = await identity.login(account.email, account.password);
  expect(headerOf(meanwhile).kid).toBe(signingBefore);
  const neighbour = await startNeighbour(identity);
  try {
    expect((await neighbour.whoami(meanwhile)).status).toBe(200);

    // The activation time comes (moved in the store rather than waited for).
    const past = new Date(Date.now() - 1000);
    await identity.service.db('signing_keys').where({ kid: rotation.kid }).update({ activates_at: past });
    await identity.service.db('signing_keys').where({ kid: signingBefore }).update({ retired_at: past });
    const { token: activated } = await identity.login(account.email, account.password);
    expect(headerOf(activated).kid).toBe(rotation.kid);
    // The other service verifies it with the key set it fetched before the activation.
    expect((await neighbour.whoami(activated)).status).toBe(200);
    for (const token of [account.token, meanwhile, activated]) expect((await identity.me(token)).status).toBe(200);
  } finally {
    await neighbour.service.stop();
  }

  // --activate-in=0 switches at once.
  const immediate = await rotateWithScript('--activate-in=0');
  const { token: latest } = await identity.login(account.email, account.password);
  expect(headerOf(latest).kid).toBe(immediate.kid);
  expect((await identity.me(latest)).status).toBe(200);
  expect(await identity.service.db('signing_keys').whereNull('retired_at')).toHaveLength(1);
});
