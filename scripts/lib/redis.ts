import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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
