/**
 * A rolling update under load drops nothing: the release migrates once (the `migrate` entry), replica A serves behind
 * a balancer that, like kube-proxy, sends new connections only to ready replicas; replica B starts and becomes
 * ready, A gets SIGTERM, drains and exits 0, and every request of the steady load meanwhile is answered 2xx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import {
  dropSchemas,
  deleteRedisKeys,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  testKeyRing,
  uniqueName,
  waitFor,
} from '@ticketing/testkit';
import { startBalancer, type Balancer } from '../lib/balancer.ts';
import { freePort } from '../lib/free-port.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = 'services/catalog/src/main.ts';
const schema = uniqueName('catalog');
const busSchema = uniqueName('bus');
const prefix = `${uniqueName('t')}:`;
const env = {
  ...process.env,
  NODE_OPTIONS: '',
  HOST: '127.0.0.1',
  DATABASE_URL: TEST_DATABASE_URL,
  DB_SCHEMA: schema,
  BUS: 'postgres',
  BUS_SCHEMA: busSchema,
  REDIS_URL: TEST_REDIS_URL,
  REDIS_PREFIX: prefix,
  LOG_LEVEL: 'info',
  DB_POOL_MAX: '5',
  BUS_POOL_MAX: '3',
  HOLD_SWEEP_MS: '0',
  // As in the cluster: the release migrated before the replicas, which only check the schema.
  MIGRATE_ON_START: 'false',
  // Long enough for the balancer's polls (every 150 ms) to notice on a busy machine.
  DRAIN_DELAY_MS: '3000',
  ...testKeyRing.settings('catalog'),
};

interface Replica {
  port: number;
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], port?: number): Omit<Replica, 'port'> {
  let output = '';
  const child = spawn(process.execPath, [ENTRY, ...args], {
    cwd: root,
    env: { ...env, PORT: String(port ?? 0) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  return {
    process: child,
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
  };
}

async function startReplica(): Promise<Replica> {
  const port = await freePort();
  return { port, ...run([], port) };
}

const replicas: Replica[] = [];
let balancer: Balancer | undefined;
afterAll(async () => {
  for (const replica of replicas) {
    replica.process.kill('SIGKILL');
    await replica.exited;
  }
  await balancer?.close();
  await dropSchemas([schema, busSchema]);
  await deleteRedisKeys(prefix);
});

test('a replica replaced under steady load: every request answered 2xx, the old one exits 0', async () => {
  const migration = run(['migrate']);
  expect(await migration.exited).toBe(0);
  expect(migration.output()).toContain('schema migrated');

  balancer = await startBalancer({ pollMs: 150 });
  const a = await startReplica();
  replicas.push(a);
  balancer.add(a.port);
  await waitFor(() => balancer!.ready(a.port), { timeoutMs: 60_000 });

  // Steady load: a few clients, each sending its next request as soon as the last is answered.
  const pool = new Pool(`http://127.0.0.1:${balancer.port}`, { connections: 4 });
  const counts = { ok: 0 };
  const failures: string[] = [];
  let loading = true;
  const client = async () => {
    while (loading) {
      try {
        const { statusCode, body } = await pool.request({ path: '/api/events', method: 'GET' });
        await body.dump();
        if (statusCode >= 200 && statusCode < 300) counts.ok++;
        else failures.push(`status ${statusCode}`);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const load = Promise.all(Array.from({ length: 4 }, client));
  try {
    await waitFor(() => counts.ok >= 100, { timeoutMs: 60_000 });

    // The roll: B starts and becomes ready, then A is told to stop.
    const b = await startReplica();
    replicas.push(b);
    balancer.add(b.port);
    await waitFor(() => balancer!.ready(b.port), { timeoutMs: 60_000 });
    const beforeStop = counts.ok;
    a.process.kill('SIGTERM');
    const code = await a.exited;
    expect({ code, output: code === 0 ? '' : a.output() }).toEqual({ code: 0, output: '' });
    expect(counts.ok).toBeGreaterThan(beforeStop);

    // Whatever is answered now, B answers.
    const afterA = counts.ok;
    await waitFor(() => counts.ok >= afterA + 100, { timeoutMs: 60_000 });
    expect(balancer.connections(b.port)).toBeGreaterThan(0);
  } finally {
    loading = false;
    await load;
    await pool.close();
  }
  expect(failures).toEqual([]);
  expect(counts.ok).toBeGreaterThan(300);
  expect(a.output()).toContain('"msg":"draining"');
}, 180_000);
