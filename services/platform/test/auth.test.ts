import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SignJWT, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import Koa from 'koa';
import { z } from 'zod';
import {
  AuthUnavailable,
  ERASED_SESSION,
  assertProductionSafe,
  baseConfigSchema,
  cachedKeySet,
  cachedSessions,
  createServiceAuth,
  createTokenVerifier,
  errorMiddleware,
  requireRole,
  sessionStateKey,
  writeSessionState,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  createLogger,
  type SessionState,
} from '../src/index.ts';
import { TEST_REDIS_URL, createTestIssuer, deleteRedisKeys, uniqueName } from '../src/testing.ts';

const prefix = `${uniqueName('auth')}:`;
const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
// Nothing listens there: every command fails, as with Redis stopped.
const deadRedis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
deadRedis.on('error', () => {});
afterAll(async () => {
  await deleteRedisKeys(prefix);
  redis.disconnect();
  deadRedis.disconnect();
});

/** Identity's database as far as these tests go: the truth a cache miss falls back to, counting its readers. */
function truth(initial: Record<string, SessionState> = {}) {
  const states = new Map(Object.entries(initial));
  let down = false;
  const source = Object.assign(
    async (userId: string) => {
      source.reads++;
      if (down) throw new AuthUnavailable('identity down');
      return states.get(userId) ?? { version: 0, revoked: [] };
    },
    { reads: 0 },
  );
  return { states, source, setDown: (value: boolean) => (down = value) };
}

describe('session state', () => {
  test('a token older than the session version, or logged out, is refused; the others pass', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { states, source } = truth();
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const old = await issuer.sign({ id }, { version: 0 });
    const loggedOut = await issuer.sign({ id }, { version: 1, tokenId: 'sessao-encerrada' });
    const current = await issuer.sign({ id }, { version: 1 });
    states.set(id, { version: 1, revoked: ['sessao-encerrada'] });

    await expect(verify(old)).rejects.toThrow('session ended');
    await expect(verify(loggedOut)).rejects.toThrow('token revoked');
    await expect(verify(current)).resolves.toMatchObject({ id });
  });

  test('a miss reads the truth once and caches it; a state identity wrote is never overwritten by a stale read', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { source } = truth();
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const token = await issuer.sign({ id });
    await verify(token);
    await verify(token);
    expect(source.reads).toBe(1);
    expect(JSON.parse((await redis.get(sessionStateKey(id)))!)).toEqual({ version: 0, revoked: [] });

    await writeSessionState(redis, id, { version: 2, revoked: [] });
    await expect(verify(token)).rejects.toThrow('session ended');
    expect(await redis.ttl(sessionStateKey(id))).toBeGreaterThan(0);
  });

  test('after Redis lost everything (a restart) nobody is logged out and no revoked token comes back', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { source } = truth({ [id]: { version: 1, revoked: ['revogado'] } });
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const good = await issuer.sign({ id }, { version: 1 });
    const revoked = await issuer.sign({ id }, { version: 1, tokenId: 'revogado' });
    await verify(good);
    await redis.del(sessionStateKey(id));

    await expect(verify(good)).resolves.toMatchObject({ id });
    await expect(verify(revoked)).rejects.toThrow('token revoked');
  });

  test('with Redis down the truth answers; with the truth down too the check is unavailable, not refused', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { source, setDown } = truth();
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(deadRedis, source));
    const token = await issuer.sign({ id });
    await expect(verify(token)).resolves.toMatchObject({ id });
    setDown(true);
    await expect(verify(token)).rejects.toBeInstanceOf(AuthUnavailable);
  });

  test('an account that no longer exists has no valid token', async () => {
    const issuer = await createTestIssuer();
    const verify = createTokenVerifier(issuer.jwks, async () => ERASED_SESSION);
    await expect(verify(await issuer.sign({}, { version: 5 }))).rejects.toThrow('session ended');
  });
});

describe("identity's keys", () => {
  async function keyPair() {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = randomUUID();
    return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' } };
  }

  async function signWith(pair: Awaited<ReturnType<typeof keyPair>>) {
    return new SignJWT({ email: 'pessoa@example.com', roles: [] })
      .setProtectedHeader({ alg: 'EdDSA', kid: pair.kid })
      .setSubject(randomUUID())
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setExpirationTime('1h')
      .sign(pair.privateKey);
  }

  test('keys already loaded stay in use when a refresh fails; an unknown key with identity down is unavailable', async () => {
    const issuer = await createTestIssuer();
    let reachable = true;
    let loads = 0;
    const load = async (): Promise<JSONWebKeySet> => {
      loads++;
      if (!reachable) throw new Error('ECONNREFUSED');
      return issuer.jwks;
    };
    const verify = createTokenVerifier(cachedKeySet(load, { retryMs: 0 }));
    const token = await issuer.sign();
    await expect(verify(token)).resolves.toBeDefined();
    reachable = false;
    await expect(verify(token)).resolves.toBeDefined();
    expect(loads).toBe(1);
    // An unknown key made identity reachable again only after the rotation: its key is learnt in one reload.
    reachable = true;
    const rotation = await keyPair();
    issuer.jwks.keys.push(rotation.jwk);
    await expect(verify(await signWith(rotation))).resolves.toBeDefined();
    expect(loads).toBe(2);
    reachable = false;

    // Signed by a key published after the last load, with identity down: no verdict on the token.
    await expect(verify(await signWith(await keyPair()))).rejects.toBeInstanceOf(AuthUnavailable);
  });

  test('the first load failing is unavailable, not a bad token', async () => {
    const issuer = await createTestIssuer();
    const verify = createTokenVerifier(
      cachedKeySet(async () => {
        throw new Error('ECONNREFUSED');
      }),
    );
    await expect(verify(await issuer.sign())).rejects.toBeInstanceOf(AuthUnavailable);
  });
});

/** A Koa app on a free port whose one route is guarded by `guard`. */
async function serve(guard: Koa.Middleware) {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('auth-test', 'silent')));
  app.use(guard);
  app.use((ctx) => {
    ctx.body = { ok: true, caller: ctx.state.caller ?? null };
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('roles on the server', () => {
  test('each route admits only the roles it names, and says which role is missing', async () => {
    const issuer = await createTestIssuer();
    const app = await serve(requireRole(issuer.verifyToken, ['doorStaff', 'admin']));
    const call = async (roles: ('admin' | 'courtesyManager' | 'doorStaff')[]) => {
      const token = await issuer.sign({ roles });
      const response = await fetch(app.url, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json() };
    };
    try {
      expect((await call(['doorStaff'])).status).toBe(200);
      expect((await call(['admin'])).status).toBe(200);
      expect(await call(['courtesyManager'])).toEqual({
        status: 403,
        body: { message: 'Acesso restrito à equipe de portaria' },
      });
      expect((await call([])).status).toBe(403);
    } finally {
      await app.close();
    }
  });

  test('an unavailable check answers 503, never 401', async () => {
    const issuer = await createTestIssuer();
    const verify = createTokenVerifier(issuer.jwks, async () => {
      throw new Error('redis and identity down');
    });
    const app = await serve(requireRole(verify, ['admin']));
    try {
      const token = await issuer.sign({ isAdmin: true });
      const response = await fetch(app.url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
      });
    } finally {
      await app.close();
    }
  });
});

describe('service tokens', () => {
  const secret = 'a-secret-for-these-tests-only-0123456789';

  test('an internal route needs a token for it, from a caller it accepts', async () => {
    const catalog = createServiceAuth('catalog', secret);
    const app = await serve(catalog.require(['orders', 'courtesy']));
    const call = (headers: Record<string, string> = {}) => fetch(app.url, { headers });
    const bearer = async (issuer: string, audience: string, key = secret) => ({
      authorization: `Bearer ${await createServiceAuth(issuer, key).token(audience)}`,
    });
    try {
      expect((await call()).status).toBe(401);
      expect(await (await call()).json()).toEqual({ message: 'Chamada interna não autorizada' });
      expect((await call(await bearer('orders', 'catalog', 'another-secret-of-enough-length-000000'))).status).toBe(
        401,
      );
      expect((await call(await bearer('orders', 'payments'))).status).toBe(401);
      expect((await call(await bearer('mail', 'catalog'))).status).toBe(403);
      const accepted = await call(await bearer('orders', 'catalog'));
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ ok: true, caller: 'orders' });
    } finally {
      await app.close();
    }
  });
});

describe('production settings', () => {
  const schema = baseConfigSchema.extend({ WEBHOOK_TOKEN: z.string().default('dev-webhook-token') });
  const check = (env: Record<string, string>) => () =>
    assertProductionSafe(schema, schema.parse({ NODE_ENV: 'production', ...env }), [
      'SERVICE_TOKEN_SECRET',
      'WEBHOOK_TOKEN',
    ]);
  const real = { SERVICE_TOKEN_SECRET: 'k3h4-real-secret-from-the-vault-8f9a0b1c2d', WEBHOOK_TOKEN: 'wh-7c1e5a9b3d' };

  test('a development default, an example value or DEV_TOOLS stop the boot, naming the setting', () => {
    expect(check({ WEBHOOK_TOKEN: real.WEBHOOK_TOKEN })).toThrow(/SERVICE_TOKEN_SECRET: a development default/);
    expect(check({ ...real, WEBHOOK_TOKEN: 'CHANGE_ME' })).toThrow(/WEBHOOK_TOKEN: a development default/);
    expect(check({ ...real, DEV_TOOLS: 'true' })).toThrow(/DEV_TOOLS: development tools cannot be on/);
    expect(check(real)).not.toThrow();
  });

  test('outside production the defaults are fine', () => {
    expect(() =>
      assertProductionSafe(schema, schema.parse({}), ['SERVICE_TOKEN_SECRET', 'WEBHOOK_TOKEN']),
    ).not.toThrow();
  });
});
