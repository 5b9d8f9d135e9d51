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
import { formatCpf, type Role } from '@ticketing/proto';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, createTokenVerifier, type AuthUser, type TokenVerifier } from './auth.ts';
import { startService, type RunningService, type ServiceDefinition, type StartOptions } from './service.ts';
import { baseConfigSchema, type BaseConfig } from './config.ts';
import { createServiceAuth } from './service-auth.ts';

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

/** Signs tokens the way the identity service does, with a key pair made for the test run. */
export async function createTestIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  const verifyToken: TokenVerifier = createTokenVerifier({ keys: [jwk] });
  /** A token for `user`; `isAdmin: true` stands for the admin role alone, `roles` lists them all. */
  async function sign(
    user: Partial<Omit<AuthUser, 'roles'>> & { roles?: Role[] } = {},
    { expiresIn = '1h', key = privateKey, version = 0, tokenId = randomUUID() as string } = {},
  ) {
    const claims = {
      email: user.email ?? `${randomUUID()}@example.com`,
      name: user.name ?? 'Pessoa Teste',
      roles: user.roles ?? (user.isAdmin ? ['admin'] : []),
      ver: version,
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setSubject(user.id ?? randomUUID())
      .setJti(tokenId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(key);
  }
  return { jwks: { keys: [jwk] }, verifyToken, sign };
}

/** The Authorization header `caller` presents to `callee`'s `/internal` routes (test services share the default secret). */
export async function serviceAuthorization(caller: string, callee: string): Promise<string> {
  const { SERVICE_TOKEN_SECRET } = baseConfigSchema.parse({});
  return `Bearer ${await createServiceAuth(caller, SERVICE_TOKEN_SECRET).token(callee)}`;
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
