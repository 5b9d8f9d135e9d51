/**
 * `npm run bench:rush`: a sales rush. The product runs as `npm start` runs it (one process per service under the
 * supervisor, its own embedded PostgreSQL and redis-server, free ports, so it runs beside `npm start`), and for each
 * BENCH_RUSH pair `buyers/spots` (default `300/100,2000/500`) an administrator creates an event with that many spots,
 * that many verified buyers are made, and every one of them presses 'Comprar' (POST /api/orders, PIX) at the same
 * moment through the gateway, all from this machine's one address (as a crowd behind a carrier's CGNAT).
 *
 * A pair `buyers/lot+lot…` (e.g. `300/50+50`) sells one ticket type in lots of those sizes, the first at R$ 100,00
 * and each next R$ 50,00 more: every lot must sell exactly its size at its price.
 *
 * Printed per rush: answers a second, p50/p99/max of the orders (201) and of the refusals ('Evento esgotado'), the
 * outcome counts, and the CPU each kind of process spent while the rush was answered, per order placed (where an
 * order's cost goes, refusals included). A rush with an aim (300/100: every answer's p99 ≤ 2 s; 2000/500: ≤ 5 s)
 * prints whether it was met, beside the machine's speed measured just before it (`machine-speed.ts`): this shared
 * machine's speed swings several-fold from hour to hour, and the aims were set at a known one. Then every winner
 * pays in the sandbox (as the provider's webhook tells payments) and the run waits until each order is paid with
 * exactly one ticket and its ticket e-mail has arrived.
 *
 * The run fails (exit 1, a line saying why) when any buyer got anything but an order or the sold-out refusal, a
 * request errored, the orders are not exactly the spots (oversold, or unsold while buyers were refused), or a winner
 * is not paid and ticketed in time.
 *
 * A small rush warms the stack up first (not in the figures). Setting up buyers is not measured: accounts are written
 * to identity's database with one password hash, and each gets a session through identity's own use case.
 * BENCH_RUSH_NODE_OPTIONS reaches every process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where each one's
 * time goes).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { z } from 'zod';
import { createDb, createLogger, createRedis, loadConfig, type Knex } from '@ticketing/platform';
import { makeCpf, waitFor } from '@ticketing/testkit';
import { CONVENIENCE_FEE_CENTS, fromCents, ordersMessages, ticketTypeMessages, toCents } from '@ticketing/proto';
import {
  createSigningKeys,
  hashPassword,
  identityConfig,
  identitySettings,
  issueToken,
  toUser,
  type UserRow,
} from '@ticketing/identity';
import { gateway, paymentSandbox, services } from '../lib/apps.ts';
import { STACK_MEMORY_AIM_MB, cpuByProcess, memoryByProcess } from '../lib/processes.ts';
import { startStack, type Stack } from '../lib/stack.ts';
import { percentile } from './fixed-rate.ts';
import { AIMS_MACHINE_RATE, helloWorldRate } from './machine-speed.ts';

const WARM_UP = { buyers: 20, spots: 10 };
/** Every answer's p99, in ms, on the machine the aims were set on. */
const AIMS_MS: Record<string, number> = { '300/100': 2000, '300/50+50': 2000, '2000/500': 5000 };
const PASSWORD = 'compra-na-abertura-1';
/** How long the winners of a rush have to be paid, ticketed and e-mailed, on top of a second per 10 of them. */
const SETTLE_MS = 60_000;
/**
 * How long the stack is left alone after the rushes before what it holds is measured: each process gives back what
 * the rush grew after a quiet look of 10 s (`releaseHeapWhenQuiet`), and the pools let idle connections go after 10 s.
 */
const QUIET_MS = 30_000;

/** Buyers and spots of a rush; `lots`, when sold in lots, their sizes (summing to the spots). */
interface RushSpec {
  buyers: number;
  spots: number;
  lots?: number[];
}

/** `300/100,300/50+50,2000/500`: buyers and spots (or lots) of each rush, in order. */
function parseRushes(text: string): RushSpec[] {
  return text.split(',').map((pair) => {
    const match = /^\s*(\d+)\s*\/\s*(\d+(?:\s*\+\s*\d+)*)\s*$/.exec(pair);
    const sizes = match ? match[2]!.split('+').map(Number) : [];
    if (!match || sizes.some((size) => size < 1)) {
      throw new Error(`BENCH_RUSH: '${pair}' is not buyers/spots or buyers/lot+lot (e.g. 300/100, 300/50+50)`);
    }
    const spots = sizes.reduce((sum, size) => sum + size, 0);
    return { buyers: Number(match[1]), spots, ...(sizes.length > 1 ? { lots: sizes } : {}) };
  });
}

const RUSHES = parseRushes(process.env.BENCH_RUSH ?? '300/100,300/50+50,2000/500');
/** The price of the i-th lot of a rush sold in lots. */
const lotPrice = (i: number) => `${100 + 50 * i}.00`;
const NODE_OPTIONS = process.env.BENCH_RUSH_NODE_OPTIONS;

/** Why the run cannot be trusted: each a line, and exit 1. */
const failures: string[] = [];

interface Buyer {
  email: string;
  token: string;
}

/**
 * Verified buyers with CPFs, each with an open session: written to identity's database as one statement (one password
 * hash for all), then each signed in by identity's own use case, which publishes the session state every service
 * checks tokens against.
 */
function buyerFactory(stack: Stack) {
  const db = createDb(stack.postgres.url, 'identity', 10);
  const redis = createRedis(stack.redis.url, '');
  const settings = identitySettings({ ...loadConfig(z.object(identityConfig), process.env), DEV_TOOLS: true });
  const keys = createSigningKeys(db, Math.max(settings.tokenTtlSeconds, settings.rememberTtlSeconds));
  const deps = { db, redis, settings, keys, logger: createLogger('rush', 'silent') };
  const passwordHash = hashPassword(PASSWORD);
  const cpfs = new Set<string>();
  let made = 0;

  async function make(count: number): Promise<Buyer[]> {
    if (redis.status === 'wait') await redis.connect();
    const hash = await passwordHash;
    const people = Array.from({ length: count }, () => {
      const n = ++made;
      return {
        email: `comprador.${n}.${randomUUID().slice(0, 8)}@example.com.br`,
        email_verified: true,
        verified_once: true,
        password_hash: hash,
        name: `Comprador ${n}`,
        cpf: newCpf(),
        phone: '(11) 98888-7777',
        birth_date: '1990-05-17',
        address: 'Rua Haddock Lobo, 595 — Cerqueira César, São Paulo — SP',
      };
    });
    const rows: UserRow[] = [];
    for (let i = 0; i < people.length; i += 1000) {
      rows.push(
        ...((await db('users')
          .insert(people.slice(i, i + 1000))
          .returning('*')) as UserRow[]),
      );
    }
    const buyers = await inBatches(rows, 10, async (row) => ({
      email: row.email,
      token: await issueToken(deps, toUser(row)),
    }));
    // PostgreSQL adds what a session spent to its own count when the session ends: these end now, not in a rush
    // where their idle timeout would put the writing of every account in the rush's CPU figures.
    await db.destroy();
    db.initialize();
    return buyers;
  }

  /** A CPF no buyer of this run has yet (accounts' CPFs are unique). */
  function newCpf(): string {
    let cpf = makeCpf();
    while (cpfs.has(cpf)) cpf = makeCpf();
    cpfs.add(cpf);
    return cpf;
  }

  return {
    make,
    async close() {
      redis.disconnect();
      await db.destroy();
    },
  };
}

/** Runs `work` for every item, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  }
  return results;
}

/** A JSON call to the gateway. */
async function call(stack: Stack, method: string, path: string, { body, token }: { body?: unknown; token?: string }) {
  const response = await fetch(stack.url + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function adminToken(stack: Stack): Promise<string> {
  const login = await call(stack, 'POST', '/api/auth/login', { body: stack.admin });
  if (login.status !== 200) throw new Error(`admin login refused: ${JSON.stringify(login.body)}`);
  return login.body.token;
}

async function createEvent(stack: Stack, token: string, title: string, { spots, lots }: RushSpec): Promise<string> {
  const created = await call(stack, 'POST', '/api/events', {
    token,
    body: {
      title,
      description: 'Abertura das vendas: todos querem o seu lugar ao mesmo tempo.',
      date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      location: 'São Paulo — SP',
      price: '150.00',
      maxAttendees: spots,
      ...(lots
        ? {
            ticketTypes: [
              {
                name: LOTS_TYPE,
                price: lotPrice(lots.length - 1),
                lots: lots.map((quantity, i) => ({ price: lotPrice(i), quantity })),
              },
            ],
          }
        : {}),
    },
  });
  if (created.status !== 201) throw new Error(`event not created: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

interface Answer {
  ms: number;
  status?: number;
  message?: string;
  order?: { id: string; asaasPaymentId: string };
  error?: string;
}

/**
 * The buyer's 'Comprar' with PIX, as the storefront sends it (a new Idempotency-Key per checkout). Sent with undici's
 * own request, lighter than fetch: the crowd shares the machine's CPUs with the product it measures.
 */
async function buy(stack: Stack, buyer: Buyer, eventId: string): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await request(`${stack.url}/api/orders`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${buyer.token}`,
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ eventId, paymentMethod: 'pix' }),
    });
    const body = (await response.body.json().catch(() => ({}))) as { message?: string; order?: Answer['order'] };
    return { ms: performance.now() - started, status: response.statusCode, message: body.message, order: body.order };
  } catch (error) {
    return { ms: performance.now() - started, error: String((error as Error).cause ?? error) };
  }
}

const BUYERS = 'buyers (this benchmark)';
const CPUS = availableParallelism();

/** CPU ms each kind of process spent since `before` was taken. */
function spentSince(before: Map<string, number>): Map<string, number> {
  const now = cpuByProcess(process.pid, BUYERS);
  return new Map([...now].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)]));
}

const isOrder = (answer: Answer) => answer.status === 201 && answer.order !== undefined;
/** The type a rush in lots sells. */
const LOTS_TYPE = 'Inteira';
/** 'Evento esgotado', or the type's own sold-out when its last lot runs out with the event's spots. */
const SOLD_OUT = [ordersMessages.soldOut, ticketTypeMessages.typeSoldOut(LOTS_TYPE)];
const isSoldOut = (answer: Answer) => answer.status === 409 && SOLD_OUT.includes(answer.message ?? '');

function latencies(answers: Answer[]) {
  const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  if (sorted.length === 0) return {};
  const ms = (value: number) => Math.round(value);
  return {
    'p50 ms': ms(percentile(sorted, 50)),
    'p99 ms': ms(percentile(sorted, 99)),
    'max ms': ms(sorted.at(-1)!),
  };
}

/** What the services recorded for the event (read in their schemas): orders by status, spots taken, tickets. */
async function recorded(db: Knex, eventId: string) {
  const orders = (await db
    .withSchema('orders')
    .from('orders')
    .where({ event_id: eventId })
    .groupBy('status')
    .select('status')
    .count({ n: '*' })) as { status: string; n: number }[];
  const amounts = (await db
    .withSchema('orders')
    .from('orders')
    .where({ event_id: eventId })
    .whereIn('status', ['pending', 'paid'])
    .groupBy('amount')
    .select('amount')
    .count({ n: '*' })) as { amount: string; n: number }[];
  const event = await db.withSchema('catalog').from('events').where({ id: eventId }).first('current_attendees');
  const [tickets] = await db.withSchema('tickets').from('tickets').where({ event_id: eventId }).count({ n: '*' });
  return {
    byStatus: Object.fromEntries(orders.map((row) => [row.status, Number(row.n)])),
    /** Orders by what they charge (pending or paid). */
    byAmount: Object.fromEntries(amounts.map((row) => [row.amount, Number(row.n)])),
    spotsTaken: (event?.current_attendees as number | undefined) ?? 0,
    tickets: Number(tickets?.n ?? 0),
  };
}

/** The running product, a connection to read what it recorded, the buyers' maker and the administrator's token. */
interface Run {
  stack: Stack;
  db: Knex;
  factory: ReturnType<typeof buyerFactory>;
  admin: string;
}

/**
 * One rush: `buyers` verified buyers press 'Comprar' at once for an event of `spots` spots; then every winner pays.
 * Failures are recorded under `name`.
 */
async function rush({ stack, db, factory, admin }: Run, spec: RushSpec, name: string) {
  const { buyers: count, spots, lots } = spec;
  const title = `Abertura de vendas ${name} ${randomUUID().slice(0, 8)}`;
  const eventId = await createEvent(stack, admin, title, spec);
  const buyers = await factory.make(count);
  const aimMs = AIMS_MS[name];
  const machineRate = aimMs === undefined ? undefined : await helloWorldRate();

  const cpuBefore = cpuByProcess(process.pid, BUYERS);
  const started = performance.now();
  const answers = await Promise.all(buyers.map((buyer) => buy(stack, buyer, eventId)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = spentSince(cpuBefore);

  const orders = answers.filter(isOrder);
  const soldOut = answers.filter(isSoldOut);
  const errors = answers.filter((answer) => answer.error !== undefined);
  const others = answers.filter((answer) => !isOrder(answer) && !isSoldOut(answer) && answer.error === undefined);
  const otherKinds = new Map<string, number>();
  for (const answer of others) {
    const kind = `${answer.status} ${answer.message ?? ''}`.trim();
    otherKinds.set(kind, (otherKinds.get(kind) ?? 0) + 1);
  }

  const sold = lots ? `lots of ${lots.join(' + ')} at ${lots.map((_, i) => `R$ ${lotPrice(i)}`).join(', ')}` : '';
  console.log(`\n${name}: ${count} buyers for ${spots} spots${sold && ` (${sold})`}, all at once through the gateway`);
  console.log(`  answered in ${seconds.toFixed(2)} s: ${Math.round(count / seconds)} answers/s`);
  console.table([
    { answer: 'order (201)', count: orders.length, ...latencies(orders) },
    { answer: `refused '${ordersMessages.soldOut}'`, count: soldOut.length, ...latencies(soldOut) },
    ...[...otherKinds].map(([kind, n]) => ({ answer: `other: ${kind}`, count: n })),
    ...(errors.length > 0 ? [{ answer: `request errors (${errors[0]!.error})`, count: errors.length }] : []),
  ]);

  if (aimMs !== undefined && machineRate !== undefined) {
    const p99 = percentile(
      answers.map((answer) => answer.ms).sort((a, b) => a - b),
      99,
    );
    console.log(
      `  every answer's p99: ${(p99 / 1000).toFixed(2)} s (aim ≤ ${aimMs / 1000} s: ${p99 <= aimMs ? 'met' : 'missed'}); ` +
        `hello-world straight just before: ${machineRate} req/s (${AIMS_MACHINE_RATE} where the aims were set)`,
    );
  }

  const cpuTotal = [...cpu.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(
    `  CPU while answering: ${(cpuTotal / 1000).toFixed(1)} s of ${(seconds * CPUS).toFixed(1)} s on ${CPUS} CPUs; ` +
      `per order placed, by process (ms): ` +
      [...cpu]
        .sort((a, b) => b[1] - a[1])
        .filter(([, ms]) => ms >= 1)
        .map(([name, ms]) => `${name} ${(ms / Math.max(1, orders.length)).toFixed(1)}`)
        .join(', '),
  );

  if (others.length > 0)
    failures.push(`${name}: ${others.length} buyers got another answer (${[...otherKinds.keys()].join('; ')})`);
  if (errors.length > 0) failures.push(`${name}: ${errors.length} requests errored (${errors[0]!.error})`);
  const expected = Math.min(spots, count);
  if (orders.length !== expected) {
    const why = orders.length > spots ? 'oversold' : 'spots left unsold';
    failures.push(`${name}: ${orders.length} orders for ${spots} spots and ${count} buyers (${why})`);
  }
  const afterRush = await recorded(db, eventId);
  if (afterRush.spotsTaken !== orders.length || (afterRush.byStatus.pending ?? 0) !== orders.length) {
    failures.push(
      `${name}: ${orders.length} orders answered, but the catalog counts ${afterRush.spotsTaken} spots taken and ` +
        `orders records ${JSON.stringify(afterRush.byStatus)}`,
    );
  }
  if (lots) {
    const expectedAmounts = Object.fromEntries(
      lots.map((quantity, i) => [fromCents(toCents(lotPrice(i)) + CONVENIENCE_FEE_CENTS), quantity]),
    );
    console.log(
      `  orders by amount: ${JSON.stringify(afterRush.byAmount)} (each lot its size: ${JSON.stringify(expectedAmounts)})`,
    );
    const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
    if (sorted(afterRush.byAmount) !== sorted(expectedAmounts)) {
      failures.push(
        `${name}: orders by amount ${JSON.stringify(afterRush.byAmount)}, not ${JSON.stringify(expectedAmounts)}`,
      );
    }
  }

  await payAndAwaitTickets({ stack, db, factory, admin }, buyers, answers, { eventId, title, name });
}

/** Every winner pays in the sandbox; waits for each order paid with one ticket and its ticket e-mail. */
async function payAndAwaitTickets(
  { stack, db }: Run,
  buyers: Buyer[],
  answers: Answer[],
  { eventId, title, name }: { eventId: string; title: string; name: string },
) {
  const winners = answers.flatMap((answer, i) =>
    isOrder(answer) ? [{ ...answer.order!, email: buyers[i]!.email }] : [],
  );
  const started = performance.now();
  await inBatches(winners, 20, async ({ asaasPaymentId }) => {
    const response = await fetch(`${stack.asaasUrl}/sandbox/payment/${encodeURIComponent(asaasPaymentId)}/confirm`, {
      method: 'POST',
      headers: { access_token: process.env.ASAAS_API_KEY ?? 'sandbox' },
    });
    await response.arrayBuffer();
    if (!response.ok) failures.push(`${name}: the sandbox refused to confirm ${asaasPaymentId} (${response.status})`);
  });
  const subject = `Seu ingresso: ${title}`;
  const mailed = () => {
    const counts = new Map<string, number>();
    for (const message of stack.catcher!.messages())
      if (message.subject === subject) for (const to of message.to) counts.set(to, (counts.get(to) ?? 0) + 1);
    return counts;
  };
  const settled = async () => {
    const state = await recorded(db, eventId);
    const mails = mailed();
    const done =
      (state.byStatus.paid ?? 0) === winners.length &&
      state.tickets === winners.length &&
      winners.every((winner) => mails.get(winner.email) === 1);
    return { done, state, mails: winners.filter((winner) => mails.has(winner.email)).length };
  };
  let last = await settled();
  try {
    await waitFor(async () => (last = await settled()).done, {
      timeoutMs: SETTLE_MS + winners.length * 100,
      maxIntervalMs: 500,
    });
    console.log(
      `  ${winners.length} winners paid, ticketed and e-mailed ${((performance.now() - started) / 1000).toFixed(1)} s after paying`,
    );
  } catch {
    failures.push(
      `${name}: of ${winners.length} winners, orders ${JSON.stringify(last.state.byStatus)}, ` +
        `${last.state.tickets} tickets, ${last.mails} ticket e-mails`,
    );
  }
  // The catcher keeps a bounded number of messages: the next rush starts with an empty inbox.
  stack.catcher!.clear();
}

/** What the stack holds once its rushes are over and it is quiet: every process this run started, not the crowd's. */
async function printStackMemory() {
  await delay(QUIET_MS);
  const byKind = [...memoryByProcess(process.pid)].sort((a, b) => b[1].pss - a[1].pss);
  const total = byKind.reduce((sum, [, held]) => ({ rss: sum.rss + held.rss, pss: sum.pss + held.pss }), {
    rss: 0,
    pss: 0,
  });
  console.log(
    `\nStack memory after the rushes: ${total.rss.toFixed(0)} MB RSS, ${total.pss.toFixed(0)} MB PSS ` +
      `(npm start's aim: ≤ ${STACK_MEMORY_AIM_MB} MB; RSS counts a shared page once per process, PSS shares it out); ` +
      `PSS by process (MB): ${byKind.map(([kind, held]) => `${kind} ${held.pss.toFixed(0)}`).join(', ')}`,
  );
}

const everyProcess = [...services, paymentSandbox, gateway];
const dataDir = await mkdtemp(join(tmpdir(), 'rush-'));
let stack: Stack | undefined;
try {
  stack = await startStack({
    ports: 'free',
    dataDir,
    seed: false,
    env: { LOG_LEVEL: 'warn' },
    appEnv: NODE_OPTIONS ? Object.fromEntries(everyProcess.map((app) => [app.name, { NODE_OPTIONS }])) : {},
    log: (app, line) => console.error(`[${app}] ${line}`),
  });
  const factory = buyerFactory(stack);
  const db = createDb(stack.postgres.url, 'public', 2);
  try {
    const run: Run = { stack, db, factory, admin: await adminToken(stack) };
    console.log(`Sales rush: one address, every process sharing this machine's CPUs (bus: ${stack.bus})`);
    await rush(run, WARM_UP, 'warm-up');
    for (const pair of RUSHES) await rush(run, pair, `${pair.buyers}/${pair.lots?.join('+') ?? pair.spots}`);
    await printStackMemory();
  } finally {
    await factory.close();
    await db.destroy();
  }
} finally {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
for (const failure of failures) console.error(`BENCHMARK FAILED — ${failure}`);
// Said outright: embedded PostgreSQL's exit hook ends the process with 0 once nothing is left to run.
process.exit(failures.length > 0 ? 1 : 0);
