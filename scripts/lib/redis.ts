import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { hasCommand } from './kafka-mock.ts';

const FALLBACK_PORT = 6390;

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {}); // the refusal is the answer
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * REDIS_URL (default the local one) if it answers, unless `own`; else a redis-server of our own on `port`, with its
 * data under `dataDir`/redis.
 */
export async function ensureRedis(
  dataDir: string,
  { port = FALLBACK_PORT, own = false }: { port?: number; own?: boolean } = {},
): Promise<{ url: string; stop(): void }> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!own && (await answers(url))) return { url, stop: () => {} };
  if (!hasCommand('redis-server')) {
    throw new Error(
      `No Redis answers at ${url} and redis-server is not installed.\n` +
        'Install it (Debian/Ubuntu: apt-get install redis-server) or set REDIS_URL to a running Redis.',
    );
  }
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '60 1'],
    {
      stdio: 'ignore',
    },
  );
  const ownUrl = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await answers(ownUrl)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return { url: ownUrl, stop: () => server.kill('SIGTERM') };
}

/**
 * The Redis the tests use: the one at TEST_REDIS_URL (default the local one) when it answers; when the default does
 * not, a redis-server started there for the run, with throwaway data.
 */
export async function redisForTests(): Promise<{ url: string; stop(): Promise<void>; started: boolean }> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await answers(url)) return { url, stop: async () => {}, started: false };
  if (process.env.TEST_REDIS_URL) throw new Error(`No Redis answers at TEST_REDIS_URL (${url}).`);
  const dataDir = await mkdtemp(join(tmpdir(), 'ticketing-test-redis-'));
  const redis = await ensureRedis(dataDir, { port: Number(new URL(url).port), own: true });
  const stop = async () => {
    redis.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { url, stop, started: true };
}
