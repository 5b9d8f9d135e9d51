import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { SignJWT, decodeJwt, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import Koa from 'koa';
import { z } from 'zod';
import {
  AuthUnavailable,
  NO_SESSIONS,
  SESSION_CACHE_SECONDS,
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
import { generateKeyRing, type ServiceKeys } from '../src/service-keys.ts';
import { TEST_REDIS_URL, createTestIssuer, deleteRedisKeys, uniqueName, waitFor } from '@ticketing/testkit';

const prefix = `${uniqueName('auth')}:`;
const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix });
// Nothing listens there: every command fails, as with Redis stopped.
const deadRedis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
deadRedis.on('error', () => {});
// Connected before the first check: while it connects, the cache counts as out of reach and is neither read nor filled.
beforeAll(() => redis.ping());
afterAll(async () => {
  await deleteRedisKeys(prefix);
  redis.disconnect();
  deadRedis.disconnect();
});

type Issuer = Awaited<ReturnType<typeof createTestIssuer>>;

/**
 * Identity's database as far as these tests go: the truth a cache miss falls back to, answering states signed with
 * the issuer's key (the sessions it opened, unless a test set them), counting its readers.
 */
function truth(issuer: Issuer) {
  const states = new Map<string, SessionState>();
  let down = false;
  const source = Object.assign(
    async (userId: string) => {
      source.reads++;
      if (down) throw new AuthUnavailable('identity down');
      return issuer.sessionState(userId, states.get(userId));
    },
    { reads: 0 },
  );
  return { states, source, setDown: (value: boolean) => (down = value) };
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const cachedState = async (id: string) => decodeJwt((await redis.get(sessionStateKey(id)))!);

describe('session state', () => {
  test("a token is good only at its session's current generation, before its end, with the roles still held", async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { states, source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const superseded = await issuer.sign({ id, sessionId: 'turno', roles: ['doorStaff', 'admin'] }, { generation: 1 });
    const current = await issuer.sign({ id, sessionId: 'turno', roles: ['doorStaff', 'admin'] }, { generation: 2 });
    const loggedOut = await issuer.sign({ id, sessionId: 'encerrada' });
    const overdue = await issuer.sign({ id, sessionId: 'vencida' });
    states.set(id, {
      roles: ['doorStaff'],
      sessions: {
        turno: { generation: 2, endsAt: inAnHour() },
        vencida: { generation: 0, endsAt: Math.floor(Date.now() / 1000) - 1 },
      },
    });

    for (const token of [superseded, loggedOut, overdue]) await expect(verify(token)).rejects.toThrow('session ended');
    // The admin role was taken away after the token was signed: it no longer counts.
    await expect(verify(current)).resolves.toMatchObject({
      id,
      sessionId: 'turno',
      roles: ['doorStaff'],
      isAdmin: false,
    });
  });

  test('a miss reads the truth once and caches it signed; a state identity writes replaces it at once', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { states, source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const token = await issuer.sign({ id, sessionId: 'aberta' });
    await verify(token);
    await verify(token);
    expect(source.reads).toBe(1);
    expect(await cachedState(id)).toMatchObject({ sub: id, sessions: { aberta: { generation: 0 } } });

    // Identity ends the session: the state it writes replaces the cached one at once.
    states.set(id, NO_SESSIONS);
    await writeSessionState(redis, id, (await issuer.sessionState(id, NO_SESSIONS))!);
    await expect(verify(token)).rejects.toThrow('session ended');
    expect(await redis.ttl(sessionStateKey(id))).toBeGreaterThan(0);
  });

  test('a token newer than the cached state (a login, a renewal, a role given since) is asked about once', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    await verify(await issuer.sign({ id, sessionId: 'celular' }));
    // A state signed a second ago, before the next login; identity's write of the newer one was lost.
    await redis.set(
      sessionStateKey(id),
      (await issuer.sessionState(id, undefined, Math.floor(Date.now() / 1000) - 1))!,
    );
    const tablet = await issuer.sign({ id, sessionId: 'tablet', roles: ['courtesyManager'] });

    await expect(verify(tablet)).resolves.toMatchObject({ sessionId: 'tablet', roles: ['courtesyManager'] });
    expect(source.reads).toBe(2);
    expect(await cachedState(id)).toMatchObject({
      roles: ['courtesyManager'],
      sessions: { tablet: { generation: 0 } },
    });
    await verify(tablet);
    expect(source.reads).toBe(2);
  });

  test('after Redis lost everything (a restart) nobody is logged out and no ended session comes back', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { states, source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const good = await issuer.sign({ id, sessionId: 'aberta' });
    const ended = await issuer.sign({ id, sessionId: 'encerrada' });
    states.set(id, { roles: [], sessions: { aberta: { generation: 0, endsAt: inAnHour() } } });
    await verify(good);
    await redis.del(sessionStateKey(id));

    await expect(verify(good)).resolves.toMatchObject({ id });
    await expect(verify(ended)).rejects.toThrow('session ended');
  });

  test('a state in Redis that identity did not sign, was altered or is older than the cache lifetime is not believed', async () => {
    const issuer = await createTestIssuer();
    const forger = await createTestIssuer();
    const id = randomUUID();
    const { states, source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    const ended = await issuer.sign({ id, sessionId: 'encerrada', roles: ['admin'] });
    const open = await issuer.sign({ id, sessionId: 'aberta', roles: ['admin'] });
    const revived: SessionState = {
      roles: ['admin'],
      sessions: { encerrada: { generation: 0, endsAt: inAnHour() }, aberta: { generation: 0, endsAt: inAnHour() } },
    };
    // Identity's truth: the admin role is gone and only one session is open.
    states.set(id, { roles: [], sessions: { aberta: { generation: 0, endsAt: inAnHour() } } });
    const genuine = (await issuer.sessionState(id, states.get(id)))!;
    const [header, , signature] = genuine.split('.');
    const altered = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(genuine), ...revived })).toString('base64url')}.${signature}`;
    const replayed = (await issuer.sessionState(
      id,
      revived,
      Math.floor(Date.now() / 1000) - SESSION_CACHE_SECONDS - 60,
    ))!;
    const forged = [(await forger.sessionState(id, revived))!, altered, replayed, JSON.stringify(revived), 'lixo'];

    for (const value of forged) {
      await redis.set(sessionStateKey(id), value);
      await expect(verify(ended)).rejects.toThrow('session ended');
      await redis.set(sessionStateKey(id), value);
      await expect(verify(open)).resolves.toMatchObject({ sessionId: 'aberta', roles: [], isAdmin: false });
      // The value found unusable was replaced by identity's answer.
      expect(await cachedState(id)).toMatchObject({ roles: [], sessions: { aberta: { generation: 0 } } });
    }
  });

  test('with Redis down the truth answers; with the truth down too the check is unavailable, not refused', async () => {
    const issuer = await createTestIssuer();
    const id = randomUUID();
    const { source, setDown } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(deadRedis, source));
    const token = await issuer.sign({ id });
    await expect(verify(token)).resolves.toMatchObject({ id });
    setDown(true);
    await expect(verify(token)).rejects.toBeInstanceOf(AuthUnavailable);
  });

  test('a JWT found good passes again only as the same kind, for the same account, and not past its expiry', async () => {
    const issuer = await createTestIssuer();
    const [ana, bruno] = [randomUUID(), randomUUID()];
    const { states, source } = truth(issuer);
    const verify = createTokenVerifier(issuer.jwks, cachedSessions(redis, source));
    states.set(bruno, NO_SESSIONS);
    await verify(await issuer.sign({ id: ana, sessionId: 'turno', roles: ['admin'] }));
    // The state read from the truth is cached without holding up the answer.
    const anasState = await waitFor(() => redis.get(sessionStateKey(ana)));

    // Ana's state, already found good for her, copied under Bruno's key: Bruno's truth is asked instead.
    await redis.set(sessionStateKey(bruno), anasState);
    const readsBefore = source.reads;
    const brunos = await issuer.sign({ id: bruno, sessionId: 'turno', roles: ['admin'] });
    await expect(verify(brunos)).rejects.toThrow('session ended');
    expect(source.reads).toBe(readsBefore + 1);
    // A session state is no session token, however often it was found good as a state.
    await expect(verify(anasState)).rejects.toThrow();

    const brief = await issuer.sign({ id: ana }, { expiresIn: '2s' });
    await expect(verify(brief)).resolves.toMatchObject({ id: ana });
    const expiry = decodeJwt(brief).exp! * 1000;
    while (Date.now() < expiry) await new Promise((resolve) => setTimeout(resolve, expiry - Date.now()));
    await expect(verify(brief)).rejects.toThrow('"exp" claim timestamp check failed');
  });

  test('an account that does not exist has no valid token', async () => {
    const issuer = await createTestIssuer();
    const verify = createTokenVerifier(
      issuer.jwks,
      cachedSessions(deadRedis, async () => undefined),
    );
    await expect(verify(await issuer.sign())).rejects.toThrow('session ended');
  });
});

describe("identity's keys", () => {
  async function keyPair() {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const kid = randomUUID();
    return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' } };
  }

  async function signWith(pair: Awaited<ReturnType<typeof keyPair>>) {
    return new SignJWT({ email: 'pessoa@example.com', roles: [], sid: randomUUID(), gen: 0 })
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
    const verify = createTokenVerifier(issuer.jwks, {
      cached: async () => undefined,
      fresh: async () => {
        throw new Error('redis and identity down');
      },
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
  const ring = generateKeyRing(['catalog', 'orders', 'courtesy', 'mail']);
  // Keys catalog was never told about: someone else's `orders`, and a service it does not know.
  const outsiders = generateKeyRing(['orders', 'stranger']);

  test('an internal route may accept only callers the list of services gives its service', () => {
    const catalog = createServiceAuth(ring.keys('catalog'));
    expect(() => catalog.require(['orders', 'mail'])).toThrow(
      "catalog's internal routes accept mail, whom proto/src/system.ts does not list",
    );
    expect(() => catalog.require(['orders', 'courtesy', 'catalog'])).not.toThrow();
  });

  test('an internal route needs a token for it, signed by the caller it names, from a caller it accepts', async () => {
    const catalog = createServiceAuth(ring.keys('catalog'));
    const app = await serve(catalog.require(['orders', 'courtesy']));
    const call = (headers: Record<string, string> = {}) => fetch(app.url, { headers });
    const bearer = async (keys: ServiceKeys, audience = 'catalog') => ({
      authorization: `Bearer ${await createServiceAuth(keys).token(audience)}`,
    });
    try {
      expect((await call()).status).toBe(401);
      expect(await (await call()).json()).toEqual({ message: 'Chamada interna não autorizada' });
      // Mail holds its own key only: a token claiming orders, signed with it, is not orders'.
      expect((await call(await bearer({ ...ring.keys('mail'), name: 'orders' }))).status).toBe(401);
      expect((await call(await bearer(outsiders.keys('orders')))).status).toBe(401);
      expect((await call(await bearer(outsiders.keys('stranger')))).status).toBe(401);
      expect((await call(await bearer(ring.keys('orders'), 'payments'))).status).toBe(401);
      // A shared-secret token of the kind services used to trust.
      const shared = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('orders')
        .setAudience('catalog')
        .setExpirationTime('1m')
        .sign(new TextEncoder().encode('a-shared-secret-every-service-knew-0000'));
      expect((await call({ authorization: `Bearer ${shared}` })).status).toBe(401);
      expect((await call(await bearer(ring.keys('mail')))).status).toBe(403);
      const ordersToken = await bearer(ring.keys('orders'));
      const accepted = await call(ordersToken);
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ ok: true, caller: 'orders' });
      // The same token again is known; a copy with its signature altered is not.
      expect((await call(ordersToken)).status).toBe(200);
      const signed = ordersToken.authorization;
      const flipped = signed.at(-10) === 'A' ? 'B' : 'A';
      const altered = `${signed.slice(0, -10)}${flipped}${signed.slice(-9)}`;
      expect((await call({ authorization: altered })).status).toBe(401);
      const mailToken = await bearer(ring.keys('mail'));
      for (let i = 0; i < 2; i++) expect((await call(mailToken)).status).toBe(403);
    } finally {
      await app.close();
    }
  });
});

describe('production settings', () => {
  const schema = baseConfigSchema.extend({
    API_SECRET: z.string().default('development-only-api-secret-0000'),
    WEBHOOK_TOKEN: z.string().default('dev-webhook-token'),
  });
  const check = (env: Record<string, string>) => () =>
    assertProductionSafe(schema, schema.parse({ NODE_ENV: 'production', ...env }), ['API_SECRET', 'WEBHOOK_TOKEN']);
  const real = {
    API_SECRET: 'k3h4-real-secret-from-the-vault-8f9a0b1c2d',
    WEBHOOK_TOKEN: 'wh-7c1e5a9b3d',
    DATABASE_URL: 'postgres://svc:Qm7-vR2xKp9tLw4zN8sJ@127.0.0.1:5432/test',
  };

  test('a development default, an example value or DEV_TOOLS stop the boot, naming the setting', () => {
    expect(check({ WEBHOOK_TOKEN: real.WEBHOOK_TOKEN })).toThrow(/API_SECRET: a development default/);
    expect(check({ ...real, WEBHOOK_TOKEN: 'CHANGE_ME' })).toThrow(/WEBHOOK_TOKEN: a development default/);
    expect(check({ ...real, DEV_TOOLS: 'true' })).toThrow(/DEV_TOOLS: development tools cannot be on/);
    expect(check(real)).not.toThrow();
  });

  test('outside production the defaults are fine', () => {
    expect(() => assertProductionSafe(schema, schema.parse({}), ['API_SECRET', 'WEBHOOK_TOKEN'])).not.toThrow();
  });
});
