/**
 * `npm run bench`: door verification under load, against this machine's own baselines measured in the same run.
 *
 * Four measurements with autocannon, each after a warm-up: a hello-world Koa route and POST /api/verify-ticket
 * (every request admits a different valid ticket), each called straight and through the same gateway process.
 * Client and servers share this machine's cores, so only the ratios mean something across machines:
 * verify ÷ hello-world straight, and verify ÷ hello-world through the gateway.
 *
 * Then the door's verdict time in a browser, online and offline (`door-verdict.ts`), the ticket's QR image
 * against the QR library's own PNG settings (`ticket-qr.ts`), and a refused login's time for an unknown e-mail
 * against a wrong password (`login-timing.ts`).
 *
 * BENCH_CONNECTIONS, BENCH_SECONDS and BENCH_TICKETS size the load; BENCH_VERIFIER_NODE_OPTIONS reaches the verifier process
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestIssuer,
  dropSchemas,
  testKeyRing,
  uniqueName,
} from '@ticketing/platform/testing';
import { waitForHttp } from '../lib/ready.ts';
import { admittedCount, issueBenchTickets } from './tickets.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Distinct valid tickets per verify measurement: more than it can admit in its seconds on this machine. */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 40_000);
const PORTS = { hello: 39101, verifier: 39102, gateway: 39103 };

const children: ChildProcess[] = [];
function run(entry: string, env: Record<string, string>): void {
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
}

/**
 * The door's token, and the part of identity the verifier asks about it: its published keys and the session
 * state of the door's account (asked once, then cached in Redis like in production).
 */
async function doorCredentials() {
  const issuer = await createTestIssuer();
  const identity = createServer(async (request, response) => {
    const session = /^\/internal\/sessions\/([^/?]+)/.exec(request.url ?? '');
    const body = session ? { state: await issuer.sessionState(decodeURIComponent(session[1]!)) } : issuer.jwks;
    response.setHeader('content-type', 'application/json').end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
  return { identity, url, token: await issuer.sign({ roles: ['doorStaff'], name: 'Portaria' }, { expiresIn: '2h' }) };
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  await autocannon({ ...options, duration: 1, connections: CONNECTIONS });
  const result = await autocannon({ ...options, duration: SECONDS, connections: CONNECTIONS });
  return {
    name,
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** POSTs to /api/verify-ticket, each with the next unused ticket. */
function verifyRequests(url: string, token: string, texts: string[]): autocannon.Options {
  let next = 0;
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/api/verify-ticket',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ qrCodeData: texts[next++] }) }),
      },
    ],
  };
}

const schema = uniqueName('bench_tickets');
const busSchema = uniqueName('bench_bus');
const door = await doorCredentials();
try {
  const common = {
    HOST: '127.0.0.1',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `${busSchema}:`,
    // Request logs off on every server alike: the baseline logs nothing either.
    LOG_LEVEL: 'warn',
  };
  run('scripts/bench/hello.ts', { PORT: String(PORTS.hello) });
  run('services/tickets/src/verifier.ts', {
    ...common,
    PORT: String(PORTS.verifier),
    DB_SCHEMA: schema,
    BUS: 'postgres',
    BUS_SCHEMA: busSchema,
    IDENTITY_URL: door.url,
    ...testKeyRing.settings('tickets'),
    // One staffer's token sends every reading: a measurement, not a door a staffer's budget is sized for.
    DOOR_READINGS_PER_MINUTE: '1000000000',
    NODE_OPTIONS: process.env.BENCH_VERIFIER_NODE_OPTIONS ?? '',
  });
  run('gateway/src/main.ts', {
    ...common,
    PORT: String(PORTS.gateway),
    // The gateway's catalog route leads to the hello-world app: the same proxy path for both measurements.
    CATALOG_URL: `http://127.0.0.1:${PORTS.hello}`,
    TICKETS_VERIFIER_URL: `http://127.0.0.1:${PORTS.verifier}`,
  });
  await Promise.all([
    waitForHttp(`http://127.0.0.1:${PORTS.hello}/`),
    waitForHttp(`http://127.0.0.1:${PORTS.verifier}/readyz`),
    waitForHttp(`http://127.0.0.1:${PORTS.gateway}/readyz`),
  ]);

  const perRun = TICKETS;
  const texts = await issueBenchTickets(TEST_DATABASE_URL, schema, 2 * perRun);
  console.log(`Benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement after 1 s to warm up`);

  const straight = `http://127.0.0.1`;
  const results = [
    await measure('hello-world, straight', { url: `${straight}:${PORTS.hello}/api/events` }),
    await measure(
      'verify-ticket, straight',
      verifyRequests(`${straight}:${PORTS.verifier}`, door.token, texts.slice(0, perRun)),
    ),
    await measure('hello-world, via gateway', { url: `${straight}:${PORTS.gateway}/api/events` }),
    await measure(
      'verify-ticket, via gateway',
      verifyRequests(`${straight}:${PORTS.gateway}`, door.token, texts.slice(perRun)),
    ),
  ];
  const admitted = await admittedCount(TEST_DATABASE_URL, schema);

  console.table(
    results.map((r) => ({
      measurement: r.name,
      'req/s': r.rps,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'non-2xx': r.non2xx,
      errors: r.errors,
    })),
  );
  const [hello, verify, helloGateway, verifyGateway] = results as [Measured, Measured, Measured, Measured];
  console.log(`verify ÷ hello-world, straight:     ${(verify.rps / hello.rps).toFixed(2)}`);
  console.log(`verify ÷ hello-world, via gateway:  ${(verifyGateway.rps / helloGateway.rps).toFixed(2)}`);
  console.log(
    `tickets admitted: ${admitted}, every verify request a different valid ticket (non-2xx would show one ran out)`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))),
    ),
  );
  door.identity.close();
  await dropSchemas([schema, busSchema]);
}

// Measurements of their own, after the load above: the door's verdict time in the browser, online and offline;
// the ticket's QR image against the QR library's own PNG settings; a refused login, unknown e-mail or wrong password.
for (const script of ['door-verdict.ts', 'ticket-qr.ts', 'login-timing.ts']) {
  const { status } = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0) process.exitCode = 1;
}
