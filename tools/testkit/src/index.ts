import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { Redis } from 'ioredis';
import jsQRModule from 'jsqr';
import knex from 'knex';
import { PNG } from 'pngjs';
import type { z } from 'zod';
import {
  EVENT_OWNERS,
  PRODUCERS,
  formatCpf,
  type Envelope,
  type EventPayload,
  type EventType,
  type Role,
} from '@ticketing/proto';
import {
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  createServiceAuth,
  createTokenVerifier,
  generateKeyRing,
  keyRing,
  signEnvelope,
  signSessionState,
  startService,
  type AuthUser,
  type BaseConfig,
  type KeyRing,
  type RunningService,
  type ServiceDefinition,
  type SessionState,
  type StartOptions,
  type TokenVerifier,
} from '@ticketing/platform';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A name no other test file uses, for schemas, key prefixes and consumer groups. */
export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Polls until `probe` returns something truthy; fails with the last value seen. The first polls come quickly and
 * then half as far apart again each time, up to `maxIntervalMs`: a long wait does not load the machine it waits on.
 */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  { timeoutMs = 15_000, intervalMs = 25, maxIntervalMs = 250 } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (let interval = intervalMs; ; interval = Math.min(maxIntervalMs, interval * 1.5)) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms (last value: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Signs tokens the way the identity service does, with a key pair made for the test run, and answers for the
 * sessions it opened the way identity does (`sessionState`: the signed state its `/internal/sessions/:id` gives).
 */
export async function createTestIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const verifyToken: TokenVerifier = createTokenVerifier({ keys: [jwk] });
  const states = new Map<string, SessionState>();
  /**
   * A token for `user`, of a session open until the test ends; `isAdmin: true` stands for the admin role alone,
   * `roles` lists them all.
   */
  async function sign(
    user: Partial<Omit<AuthUser, 'roles'>> & { roles?: Role[] } = {},
    { expiresIn = '1h', key = privateKey, generation = 0, tokenId = randomUUID() as string } = {},
  ) {
    const id = user.id ?? randomUUID();
    const sessionId = user.sessionId ?? randomUUID();
    const roles = user.roles ?? (user.isAdmin ? ['admin' as const] : []);
    const state = states.get(id) ?? { roles: [], sessions: {} };
    state.roles = [...new Set([...state.roles, ...roles])];
    state.sessions[sessionId] = { generation, endsAt: Math.floor(Date.now() / 1000) + 30 * 86_400 };
    states.set(id, state);
    const claims = {
      email: user.email ?? `${randomUUID()}@example.com`,
      name: user.name ?? 'Pessoa Teste',
      roles,
      sid: sessionId,
      gen: generation,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject(id)
      .setJti(tokenId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);
  }
  /** A state signed with the issuer's key (now, or at `signedAt`): the sessions it opened for `userId`, or `state`. */
  async function sessionState(
    userId: string,
    state = states.get(userId),
    signedAt?: number,
  ): Promise<string | undefined> {
    return state && signSessionState({ kid, privateKey, alg: 'EdDSA' }, userId, state, signedAt);
  }
  return { jwks: { keys: [jwk] }, verifyToken, sign, sessionState };
}

/** `ring` and a new key pair for each of `names`. */
const extendKeyRing = (ring: KeyRing, names: readonly string[]): KeyRing =>
  keyRing({ ...ring.privateKeys, ...generateKeyRing(names).privateKeys });

/**
 * The keys of every service a test process starts: each its own private key, all of them everyone's public keys,
 * as `npm start` hands them out. A name outside the product's services gets a key pair when first asked for.
 */
export const testKeyRing = (() => {
  let ring = generateKeyRing(PRODUCERS);
  const ensure = (name: string) => {
    if (!(name in ring.privateKeys)) ring = extendKeyRing(ring, [name]);
    return ring;
  };
  return {
    /** SERVICE_KEY and SERVICE_PUBLIC_KEYS for the service that signs as `name`. */
    settings: (name: string) => ensure(name).settings(name),
    keys: (name: string) => ensure(name).keys(name),
  };
})();

/** The Authorization header `caller` presents to `callee`'s `/internal` routes, signed with `caller`'s own key. */
export async function serviceAuthorization(caller: string, callee: string): Promise<string> {
  return `Bearer ${await createServiceAuth(testKeyRing.keys(caller)).token(callee)}`;
}

/**
 * Stands in for the producer a test leaves out: writes an event to `service`'s outbox (in a transaction of its own,
 * as a use case would) signed with the key of the service that alone may publish it, and the relay sends it so.
 */
export async function publishAsOwner<T extends EventType>(
  service: Pick<RunningService<unknown>, 'db' | 'outbox'>,
  type: T,
  key: string,
  payload: EventPayload<T>,
): Promise<Envelope> {
  const owner = (EVENT_OWNERS as Record<string, readonly string[]>)[type]![0]!;
  return service.db.transaction(async (trx) => {
    const signed = signEnvelope(testKeyRing.keys(owner), await service.outbox.add(trx, type, key, payload as never));
    await trx('outbox').where({ id: signed.id }).update({ envelope: signed });
    return signed;
  });
}

/** Structured log lines a service wrote, for asserting what it logged. */
export function captureLogs() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { stream, lines };
}

export interface TestServiceOptions extends StartOptions {
  env?: Record<string, string>;
  /** Services of one test that talk through the bus share its schema. */
  busSchema?: string;
  /** Services of one test that share Redis state (sessions, limits) share a key prefix. */
  redisPrefix?: string;
}

export type TestService<C> = RunningService<C> & { stop(): Promise<void> };

/** Starts a service in-process on a free port against the machine's PostgreSQL and Redis, in fresh schemas. */
export async function startTestService<S extends z.ZodRawShape>(
  definition: ServiceDefinition<S>,
  options: TestServiceOptions = {},
): Promise<TestService<BaseConfig & z.infer<z.ZodObject<S>>>> {
  const schema = uniqueName(definition.name.replaceAll('-', '_'));
  const busSchema = options.busSchema ?? uniqueName('bus');
  const prefix = options.redisPrefix ?? `${uniqueName('t')}:`;
  const service = await startService(
    definition,
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      DB_SCHEMA: schema,
      BUS: 'postgres',
      BUS_SCHEMA: busSchema,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // Two whole systems run side by side within PostgreSQL's default 100 connections.
      DB_POOL_MAX: '5',
      BUS_POOL_MAX: '3',
      ...testKeyRing.settings(definition.identity ?? definition.name),
      ...options.env,
    },
    options,
  );
  return {
    ...service,
    async stop() {
      await service.close();
      await dropSchemas([schema, ...(options.busSchema ? [] : [busSchema])]);
      if (!options.redisPrefix) await deleteRedisKeys(prefix);
    },
  };
}

export async function dropSchemas(schemas: string[]): Promise<void> {
  const db = knex({ client: 'pg', connection: TEST_DATABASE_URL, pool: { min: 0, max: 1 } });
  try {
    for (const schema of schemas) await db.raw('drop schema if exists ?? cascade', [schema]);
  } finally {
    await db.destroy();
  }
}

/** Removes every Redis key a test wrote under its prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

// A CommonJS package: its default export arrives as `module.exports`, which carries the function as `default`.
const jsQR = jsQRModule.default;

/** The text a QR code image carries (PNG bytes, base64 or a data URL), read the way a phone camera would. */
export function readQrCode(image: Buffer | string): string | undefined {
  const bytes =
    typeof image === 'string' ? Buffer.from(image.replace(/^data:image\/png;base64,/, ''), 'base64') : image;
  const png = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** A CPF with valid check digits, formatted 000.000.000-00, different on every call. */
export function makeCpf(): string {
  const digits = Array.from({ length: 9 }, () => randomInt(0, 10));
  if (digits.every((digit) => digit === digits[0])) digits[8] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return formatCpf(digits.join(''));
}

/**
 * A Redis server of the test's own (Debian's `redis-server`, nothing on disk), on a free port that it keeps across
 * `kill` (SIGKILL, like a crashed pod) and `start` again (empty, like a restart).
 */
export async function startPrivateRedis() {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as AddressInfo;
      server.close(() => resolve(free));
    });
  });
  let child: ChildProcess | undefined;
  async function start(): Promise<void> {
    const started = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    child = started;
    await new Promise<void>((resolve, reject) => {
      started.once('error', reject);
      started.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
    });
  }
  async function kill(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  }
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, kill };
}
