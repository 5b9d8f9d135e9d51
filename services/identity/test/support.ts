import { randomInt, randomUUID } from 'node:crypto';
import { SignJWT, importJWK, type JWTPayload } from 'jose';
import { Router } from '@koa/router';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, defineService, requireUser } from '@ticketing/platform';
import {
  captureLogs,
  deleteRedisKeys,
  dropSchemas,
  makeCpf,
  serviceAuthorization,
  startTestService,
  testKeyRing,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  uniqueName,
} from '@ticketing/testkit';
export { makeCpf };
import type { UserView } from '@ticketing/proto';
import { identityService } from '../src/index.ts';

export const ADMIN_EMAIL = 'admin@educacaofarma.com.br';
export const ADMIN_PASSWORD = 'admin123';

export const makeEmail = (name = 'pessoa') => `${name}.${randomUUID().slice(0, 8)}@exemplo.com.br`;

/** A random private address, so failed logins of one test never count against another. */
export const makeIp = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** A registration as the register page sends it. */
export function registration(fields: Record<string, unknown> = {}) {
  return {
    name: 'Maria da Silva',
    cpf: makeCpf(),
    birthDate: '15/03/1990',
    email: makeEmail('maria'),
    phone: '(31) 98765-4321',
    address: 'Rua da Bahia, 1200 – Centro, Belo Horizonte/MG',
    password: 'senha-forte-123',
    ...fields,
  };
}

export interface RequestOptions {
  body?: unknown;
  raw?: string;
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
}

export interface Account {
  id: string;
  email: string;
  password: string;
  cpf: string;
  token: string;
}

export type Identity = Awaited<ReturnType<typeof startIdentity>>;

/**
 * The identity service in-process against real PostgreSQL and Redis, with functions that drive it through its
 * API and read its store, its outbox and its logs.
 */
export async function startIdentity({ env = {} }: { env?: Record<string, string> } = {}) {
  const logs = captureLogs();
  const redisPrefix = `${uniqueName('identity')}:`;
  const busSchema = uniqueName('bus');
  const service = await startTestService(identityService, {
    logStream: logs.stream,
    redisPrefix,
    busSchema,
    env: { LOG_LEVEL: 'info', ...env },
  });

  async function request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? makeIp(), ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    // `/internal` paths are called as orders unless the headers say otherwise.
    if (path.startsWith('/internal/') && !('authorization' in headers))
      headers.authorization = await serviceAuthorization('orders', 'identity');
    const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    return fetch(service.url + path, { method, headers, body });
  }

  /** The payloads of the events written for `key` (a user id), oldest first, optionally of one type. */
  async function events(key: string, type?: string): Promise<Record<string, unknown>[]> {
    const rows = await service.db('outbox').where({ key }).orderBy('seq');
    return rows
      .filter((row: { topic: string }) => type === undefined || row.topic === type)
      .map((row: { topic: string; envelope: { type: string; payload: Record<string, unknown> } }) => {
        expect(row.envelope.type).toBe(row.topic);
        return { type: row.topic, ...row.envelope.payload };
      });
  }

  /** The last verification code sent to the user, read from the event the mail service receives. */
  async function lastCode(userId: string): Promise<string> {
    const issued = await events(userId, 'user.verification-code-issued');
    const code = issued.at(-1)?.code;
    if (typeof code !== 'string') throw new Error(`no code issued for ${userId}`);
    return code;
  }

  async function lastResetToken(userId: string): Promise<string> {
    const requested = await events(userId, 'user.password-reset-requested');
    const token = requested.at(-1)?.token;
    if (typeof token !== 'string') throw new Error(`no reset token for ${userId}`);
    return token;
  }

  const userRow = (id: string) => service.db('users').where({ id }).first();
  /** The ids of the account's sessions still stored, oldest first. */
  const sessionIds = (userId: string): Promise<string[]> =>
    service.db('sessions').where({ user_id: userId }).orderBy('created_at').pluck('id');
  const userByEmail = (email: string) => service.db('users').where({ email: email.toLowerCase() }).first();

  /**
   * The token ends with its session, which lasts `seconds` from when it opened: a moment before the token was
   * signed, so `exp - iat` may be a second short.
   */
  async function expectTokenToLastItsSession(token: string, seconds: number) {
    const claims = claimsOf(token);
    const session = await service.db('sessions').where({ id: claims.sid }).first();
    expect(claims.exp).toBe(Math.floor(session.ends_at.getTime() / 1000));
    expect(session.ends_at.getTime() - session.created_at.getTime()).toBe(seconds * 1000);
    expect(Number(claims.iat)).toBeGreaterThanOrEqual(Math.floor(session.created_at.getTime() / 1000));
  }

  async function login(email: string, password: string, extra: Record<string, unknown> = {}) {
    const response = await request('POST', '/api/auth/login', { body: { email, password, ...extra } });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as { token: string; user: UserView };
  }

  /** Registers through the API (unverified); the token is a login's. */
  async function registered(fields: Record<string, unknown> = {}): Promise<Account> {
    const input = registration(fields);
    const response = await request('POST', '/api/auth/register', { body: input });
    if (response.status !== 202) throw new Error(`register failed: ${response.status} ${await response.text()}`);
    const row = await userByEmail(input.email);
    const { token } = await login(input.email, input.password);
    return { id: row.id, email: input.email, password: input.password, cpf: input.cpf, token };
  }

  /** Registers and verifies the e-mail through the API; the token is the verification's. */
  async function verified(fields: Record<string, unknown> = {}): Promise<Account> {
    const account = await registered(fields);
    const response = await request('POST', '/api/auth/verify-code', {
      body: { email: account.email, code: await lastCode(account.id) },
    });
    if (response.status !== 200) throw new Error(`verify failed: ${response.status} ${await response.text()}`);
    const { token } = (await response.json()) as { token: string };
    return { ...account, token };
  }

  /** Signs a token with the service's own current key, with any claims: for expired or forged-claim cases. */
  async function signWithServiceKey(
    claims: JWTPayload & { sub: string },
    { issuer = TOKEN_ISSUER, audience = TOKEN_AUDIENCE }: { issuer?: string; audience?: string } = {},
  ) {
    const row = await service
      .db('signing_keys')
      .where('activates_at', '<=', new Date())
      .orderBy('activates_at', 'desc')
      .first();
    const key = await importJWK(row.private_jwk, 'EdDSA');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: row.kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .sign(key);
  }

  /** The environment of another replica of this service: same database schema, Redis and bus. */
  const replicaEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    DB_SCHEMA: service.schema,
    BUS: 'postgres',
    BUS_SCHEMA: busSchema,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'silent',
    DB_POOL_MAX: '3',
    ...testKeyRing.settings('identity'),
    ...env,
    ...extra,
  });

  const me = (token: string) => request('GET', '/api/auth/me', { token });
  const lines = (msg: string) => logs.lines.filter((line) => line.msg === msg);
  const unhandledErrors = () => lines('unhandled error');

  return {
    service,
    logs,
    redisPrefix,
    busSchema,
    request,
    events,
    lastCode,
    lastResetToken,
    userRow,
    sessionIds,
    userByEmail,
    expectTokenToLastItsSession,
    login,
    registered,
    verified,
    signWithServiceKey,
    replicaEnv,
    me,
    lines,
    unhandledErrors,
    async stop() {
      await service.stop();
      await dropSchemas([busSchema]);
      await deleteRedisKeys(redisPrefix);
    },
  };
}

/** The claims inside a token (no verification: for asserting what identity put there). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

export function headerOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
}

/** The same token with one character of its signature changed. */
export function tamper(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const i = Math.floor(signature.length / 2);
  const changed = signature[i] === 'A' ? 'B' : 'A';
  return `${header}.${payload}.${signature.slice(0, i)}${changed}${signature.slice(i + 1)}`;
}

/**
 * Another service of the platform (it goes by catalog's name, one of the services identity answers), as every
 * service is built: it verifies tokens with identity's published keys and the session states it caches in the
 * Redis they share, asking identity on a miss, behind the platform's `requireUser`.
 */
export async function startNeighbour(identity: Identity, identityUrl = identity.service.url) {
  const neighbour = defineService({
    name: 'catalog',
    migrations: [],
    setup({ verifyToken }) {
      const router = new Router();
      router.get('/api/whoami', requireUser(verifyToken), (ctx) => {
        ctx.body = ctx.state.user;
      });
      return { router };
    },
  });
  const service = await startTestService(neighbour, {
    redisPrefix: identity.redisPrefix,
    env: { IDENTITY_URL: identityUrl },
  });
  return {
    service,
    whoami: (token: string) => fetch(`${service.url}/api/whoami`, { headers: { authorization: `Bearer ${token}` } }),
  };
}
