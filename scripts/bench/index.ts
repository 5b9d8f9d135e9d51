/**
 * `npm run bench`: door verification under load, against this machine's own baselines measured in the same run.
 *
 * Four measurements with autocannon, each after a warm-up: a hello-world Koa route and POST /api/verify-ticket
 * (every request admits a different valid ticket of an event the door staffer is assigned to), each called straight
 * and through the same gateway process. Client and servers share this machine's cores, so only the ratios mean
 * something across machines: verify ÷ hello-world straight, and verify ÷ hello-world through the gateway. The
 * gateway's own cost, hello-world through it ÷ straight, is taken over BENCH_GATEWAY_ROUNDS alternated rounds (3) and
 * its median printed: one pair of runs swings with whatever else the machine does meanwhile. Each round also measures
 * hello-world through the barest Node proxy (`bare-proxy.ts`), what the hop alone costs on this machine.
 *
 * Then the door at a fixed rate, as a door's queue arrives rather than as fast as a client can push: BENCH_DOOR_RATE
 * verifications a second for BENCH_DOOR_SECONDS straight at the verifier, each a different ticket, with p50, p99 and
 * max (aim: p99 ≤ 20 ms), once the verifier has relayed the check-ins of the measurements before; next to it, at the
 * same rate, one durable single-row UPDATE a request on PostgreSQL — the floor under any reading that records an
 * entry.
 *
 * A measurement that cannot be trusted fails the run (exit 1, a line saying why): any non-2xx answer, connection
 * error or timeout, or fewer tickets admitted (rows updated) than requests answered.
 *
 * Then the door's verdict time in a browser, online and offline (`door-verdict.ts`), the ticket's QR image
 * against the QR library's own PNG settings (`ticket-qr.ts`), a refused login's time for an unknown e-mail
 * against a wrong password (`login-timing.ts`), and certificates of attendance: one PDF, and an event's release to
 * 800 holders with their e-mails (`certificates.ts`).
 *
 * Every server it starts listens on a free port, so it runs beside `npm start`. BENCH_CONNECTIONS, BENCH_SECONDS
 * and BENCH_TICKETS size the load (a verify measurement stops early when its tickets run out);
 * BENCH_VERIFIER_NODE_OPTIONS reaches the verifier process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see
 * where its time goes).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createDb } from '@ticketing/platform';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestIssuer,
  dropSchemas,
  testKeyRing,
  uniqueName,
} from '@ticketing/testkit';
import { freePort } from '../lib/free-port.ts';
import { waitForHttp } from '../lib/ready.ts';
import { fixedRate, type FixedRateResult } from './fixed-rate.ts';
import { admittedCount, issueBenchTickets, outboxRelayed } from './tickets.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Distinct valid tickets per verify measurement: more than it can admit in its seconds on this machine. */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 40_000);
const DOOR_RATE = Number(process.env.BENCH_DOOR_RATE ?? 100);
const DOOR_SECONDS = Number(process.env.BENCH_DOOR_SECONDS ?? 30);
/** Hello-world through the gateway ÷ straight: the gateway should cost about what a bare proxy does. */
const GATEWAY_RATIO_AIM = 0.35;
const GATEWAY_ROUNDS = Number(process.env.BENCH_GATEWAY_ROUNDS ?? 3);

/** Why the run cannot be trusted: each a line, and exit 1. */
const failures: string[] = [];

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
  const userId = randomUUID();
  const token = await issuer.sign({ id: userId, roles: ['doorStaff'], name: 'Portaria' }, { expiresIn: '2h' });
  return { identity, url, userId, token };
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Answers received, warm-up included. */
  answered: number;
  non2xx: number;
  errors: number;
}

/** A load to measure; each call gives the options of one autocannon run (the warm-up, then the measurement). */
type Load = () => autocannon.Options;

async function measure(name: string, load: Load): Promise<Measured> {
  const warmUp = await autocannon({ ...load(), duration: 1, connections: CONNECTIONS });
  const result = await autocannon({ ...load(), duration: SECONDS, connections: CONNECTIONS });
  const measured = {
    name,
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    answered: warmUp.requests.total + result.requests.total,
    non2xx: warmUp.non2xx + result.non2xx,
    errors: warmUp.errors + warmUp.timeouts + result.errors + result.timeouts,
  };
  if (measured.non2xx > 0 || measured.errors > 0)
    failures.push(`${name}: ${measured.non2xx} non-2xx answers and ${measured.errors} errors or timeouts`);
  return measured;
}

/** The item whose `value` is the median (the lower one of an even count). */
const medianBy = <T>(items: T[], value: (item: T) => number): T =>
  [...items].sort((a, b) => value(a) - value(b))[Math.floor((items.length - 1) / 2)]!;

/**
 * Hello-world straight, through the gateway and through the bare proxy, alternated round by round: the round whose
 * gateway ratio is the median, every round's ratio, and the bare proxy's median ratio in the same rounds.
 */
async function measureGatewayCost(straight: Load, viaGateway: Load, viaBareProxy: Load) {
  const rounds: { straight: Measured; gateway: Measured; ratio: number; bareRatio: number }[] = [];
  for (let round = 0; round < GATEWAY_ROUNDS; round++) {
    const pair = {
      straight: await measure('hello-world, straight', straight),
      gateway: await measure('hello-world, via gateway', viaGateway),
    };
    const bare = await measure('hello-world, via a bare proxy', viaBareProxy);
    rounds.push({ ...pair, ratio: pair.gateway.rps / pair.straight.rps, bareRatio: bare.rps / pair.straight.rps });
  }
  return {
    median: medianBy(rounds, (round) => round.ratio),
    ratios: rounds.map((round) => round.ratio),
    bareRatio: medianBy(rounds, (round) => round.bareRatio).bareRatio,
  };
}

interface Batch {
  eventId: string;
  texts: string[];
}

/** POSTs to /api/verify-ticket at the batch's event, each with the next unused ticket, until they run out. */
function verifyLoad(url: string, token: string, { eventId, texts }: Batch): Load {
  let next = 0;
  return () => ({
    url,
    maxOverallRequests: Math.max(CONNECTIONS, texts.length - next),
    requests: [
      {
        method: 'POST',
        path: '/api/verify-ticket',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ qrCodeData: texts[next++], eventId }) }),
      },
    ],
  });
}

/** Fails the run when fewer of the batch's tickets were let in than requests were answered. */
async function checkAdmitted(name: string, schema: string, batch: Batch, requests: number): Promise<number> {
  const admitted = await admittedCount(TEST_DATABASE_URL, schema, batch.eventId);
  if (admitted < requests) failures.push(`${name}: ${admitted} tickets admitted for ${requests} requests`);
  return admitted;
}

/** The floor: one durable single-row UPDATE a request, at the door's rate, in a schema of its own. */
async function measureFloor(schema: string): Promise<FixedRateResult & { stored: number; synchronousCommit: string }> {
  const db = createDb(TEST_DATABASE_URL, schema, 20);
  try {
    await db.raw('create schema ??', [schema]);
    await db.schema.createTable('counters', (table) => {
      table.integer('id').primary();
      table.bigInteger('n').notNullable().defaultTo(0);
    });
    // A second's worth of rows: no update waits on another's row lock, as each reading updates its own ticket; each
    // commits on its own.
    const rows = DOOR_RATE;
    await db('counters').insert(Array.from({ length: rows }, (_, id) => ({ id })));
    const { rows: setting } = await db.raw('show synchronous_commit');
    const result = await fixedRate(DOOR_RATE, DOOR_SECONDS, async (i) => {
      const updated = await db.raw('update counters set n = n + 1 where id = ?', [i % rows]);
      return updated.rowCount === 1;
    });
    const [{ total }] = await db('counters').sum({ total: 'n' });
    if (result.failures > 0 || Number(total) < result.calls)
      failures.push(
        `single-row update: ${result.failures} failed, ${total} updates stored for ${result.calls} requests`,
      );
    return { ...result, stored: Number(total), synchronousCommit: setting[0].synchronous_commit };
  } finally {
    await db.destroy();
  }
}

const schema = uniqueName('bench_tickets');
const busSchema = uniqueName('bench_bus');
const floorSchema = uniqueName('bench_floor');
const door = await doorCredentials();
try {
  const ports = {
    hello: await freePort(),
    verifier: await freePort(),
    gateway: await freePort(),
    bareProxy: await freePort(),
  };
  const common = {
    HOST: '127.0.0.1',
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `${busSchema}:`,
    // Request logs off on every server alike: the baseline logs nothing either.
    LOG_LEVEL: 'warn',
  };
  run('scripts/bench/hello.ts', { PORT: String(ports.hello) });
  run('scripts/bench/bare-proxy.ts', {
    PORT: String(ports.bareProxy),
    UPSTREAM_URL: `http://127.0.0.1:${ports.hello}`,
  });
  run('services/tickets/src/verifier.ts', {
    ...common,
    PORT: String(ports.verifier),
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
    PORT: String(ports.gateway),
    OPS_PORT: String(await freePort()),
    // The gateway's catalog route leads to the hello-world app: the same proxy path for both measurements.
    CATALOG_URL: `http://127.0.0.1:${ports.hello}`,
    TICKETS_VERIFIER_URL: `http://127.0.0.1:${ports.verifier}`,
  });
  const exited = () => children.some((child) => child.exitCode !== null);
  await Promise.all([
    waitForHttp(`http://127.0.0.1:${ports.hello}/`, 60_000, exited),
    waitForHttp(`http://127.0.0.1:${ports.bareProxy}/`, 60_000, exited),
    waitForHttp(`http://127.0.0.1:${ports.verifier}/readyz`, 60_000, exited),
    waitForHttp(`http://127.0.0.1:${ports.gateway}/readyz`, 60_000, exited),
  ]);

  const issue = (count: number) => issueBenchTickets(TEST_DATABASE_URL, schema, count, door.userId);
  const straightBatch = await issue(TICKETS);
  const gatewayBatch = await issue(TICKETS);
  const doorBatch = await issue(Math.round(DOOR_RATE * DOOR_SECONDS));
  console.log(`Benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement after 1 s to warm up`);

  const at = (port: number) => `http://127.0.0.1:${port}`;
  const gatewayCost = await measureGatewayCost(
    () => ({ url: `${at(ports.hello)}/api/events` }),
    () => ({ url: `${at(ports.gateway)}/api/events` }),
    () => ({ url: `${at(ports.bareProxy)}/api/events` }),
  );
  const { straight: hello, gateway: helloGateway } = gatewayCost.median;
  const verify = await measure('verify-ticket, straight', verifyLoad(at(ports.verifier), door.token, straightBatch));
  const verifyGateway = await measure(
    'verify-ticket, via gateway',
    verifyLoad(at(ports.gateway), door.token, gatewayBatch),
  );
  const results = [hello, verify, helloGateway, verifyGateway];
  const admitted = {
    straight: await checkAdmitted(verify.name, schema, straightBatch, verify.answered),
    gateway: await checkAdmitted(verifyGateway.name, schema, gatewayBatch, verifyGateway.answered),
  };

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
  // The gateway's own cost, beside the bare proxy's in the same rounds: what the hop alone costs on this machine.
  const gatewayRatio = gatewayCost.median.ratio;
  console.log(
    // Three decimals: at two, a ratio just under the aim would print as the aim itself.
    `gateway ÷ straight, hello-world: ${gatewayRatio.toFixed(3)}, the median of ` +
      `${gatewayCost.ratios.map((ratio) => ratio.toFixed(3)).join(', ')} (aim ≥ ${GATEWAY_RATIO_AIM}: ` +
      `${gatewayRatio >= GATEWAY_RATIO_AIM ? 'met' : 'missed'}; the table shows the median round)`,
  );
  console.log(
    `bare proxy ÷ straight, hello-world: ${gatewayCost.bareRatio.toFixed(3)} (median, same rounds); ` +
      `gateway ÷ bare proxy: ${(gatewayRatio / gatewayCost.bareRatio).toFixed(2)}`,
  );
  console.log(`verify ÷ hello-world, straight:     ${(verify.rps / hello.rps).toFixed(2)}`);
  console.log(`verify ÷ hello-world, via gateway:  ${(verifyGateway.rps / helloGateway.rps).toFixed(2)}`);
  console.log(
    `tickets admitted: ${admitted.straight} for ${verify.answered} answers straight, ${admitted.gateway} for ` +
      `${verifyGateway.answered} via gateway (warm-ups included; a few more admitted were in flight when a run stopped)`,
  );

  // The door at a fixed rate, straight at the verifier as the Ingress sends it; each reading a different ticket. It
  // starts once the check-ins of the floods above are relayed: a door's steady stream, not the tail of a flood.
  await outboxRelayed(TEST_DATABASE_URL, schema);
  const doorResult = await fixedRate(DOOR_RATE, DOOR_SECONDS, async (i) => {
    const response = await fetch(`${at(ports.verifier)}/api/verify-ticket`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
      body: JSON.stringify({ qrCodeData: doorBatch.texts[i], eventId: doorBatch.eventId }),
    });
    const body = (await response.json()) as { success?: boolean };
    return response.ok && body.success === true;
  });
  const doorName = 'verify-ticket at a fixed rate';
  if (doorResult.failures > 0) failures.push(`${doorName}: ${doorResult.failures} readings not admitted`);
  const doorAdmitted = await checkAdmitted(doorName, schema, doorBatch, doorResult.calls);
  const floor = await measureFloor(floorSchema);

  console.log(`\nFixed rate: ${DOOR_RATE} requests/s for ${DOOR_SECONDS} s, each timed from when it was due`);
  console.table(
    [
      { measurement: doorName, ...doorResult, admitted: doorAdmitted },
      {
        measurement: `single-row update (synchronous_commit ${floor.synchronousCommit})`,
        ...floor,
        admitted: floor.stored,
      },
    ].map(({ measurement, calls, failures: failed, p50, p99, max, admitted: ok }) => ({
      measurement,
      requests: calls,
      failed,
      'p50 ms': p50,
      'p99 ms': p99,
      'max ms': max,
      'admitted / stored': ok,
    })),
  );
  console.log(
    `door p99 ${doorResult.p99} ms (aim ≤ 20 ms: ${doorResult.p99 <= 20 ? 'met' : 'missed'}), ` +
      `${(doorResult.p99 / Math.max(0.1, floor.p99)).toFixed(1)} × the floor's p99`,
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null))),
    ),
  );
  door.identity.close();
  await dropSchemas([schema, busSchema, floorSchema]);
}

// Measurements of their own, after the load above: the door's verdict time in the browser, online and offline;
// the ticket's QR image against the QR library's own PNG settings; a refused login, unknown e-mail or wrong password;
// a sales rush through the whole product; certificates released to an event's holders. Each stops with an error of
// its own when what it measures was refused.
for (const script of ['door-verdict.ts', 'ticket-qr.ts', 'login-timing.ts', 'rush.ts', 'certificates.ts']) {
  const { status } = spawnSync(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0) failures.push(`${script} stopped with exit code ${status} (its error is above)`);
}
for (const failure of failures) console.error(`BENCHMARK FAILED — ${failure}`);
if (failures.length > 0) process.exitCode = 1;
