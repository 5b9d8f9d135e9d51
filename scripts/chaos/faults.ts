import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@ticketing/testkit';
import type { Stack } from '../lib/stack.ts';
import type { Client } from './client.ts';
import type { Database } from './database.ts';
import type { Purchase, Shopper } from './load.ts';
import { registerPerson, type Person } from './setup.ts';
import type { Timeline } from './timeline.ts';

/** A fault caused, and how long the product took to come back from it. */
export interface Recovery {
  fault: string;
  /** Until the process (or every process) answered its readiness probe again. */
  readyMs?: number;
  /** Until a real request of the part hit succeeded (or, for the bus, until its backlog was delivered). */
  recoveredMs: number;
  note?: string;
}

const RECOVERY_TIMEOUT_MS = 180_000;

/** The product as its operators and its buyers reach it while things break. */
export interface FaultContext {
  stack: Stack;
  /** The load's client; probes use their own, whose refusals are expected. */
  probeClient: Client;
  timeline: Timeline;
  db: Database;
  shopper: Shopper;
  /** The probes' account that signs in and reads. */
  reader: Person;
  /** Accounts of the probes that buy, each once (payments, tickets-worker, PostgreSQL restart). */
  probeBuyers: Person[];
  /** Pauses and resumes the Kafka brokers (the PostgreSQL bus is cut through the stack's `busLink`). */
  kafka?: { pause(): void; resume(): void };
}

const answersOk = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    (response) => response.ok,
    () => false,
  );

const readyUrl = (stack: Stack, name: string) =>
  name === 'gateway'
    ? `${stack.url}/readyz`
    : `http://127.0.0.1:${stack.apps.find((app) => app.name === name)!.port}/readyz`;

/** Until `work` says done, trying again every 250 ms; fails after the recovery timeout. */
const until = <T>(work: () => Promise<T>) => waitFor(work, { timeoutMs: RECOVERY_TIMEOUT_MS, maxIntervalMs: 250 });

/** A purchase by the next prober, answered 201 once the whole chain (orders, catalog, payments) works. */
async function probePurchase(context: FaultContext): Promise<Purchase> {
  const buyer = context.probeBuyers.shift();
  if (!buyer) throw new Error('no prober account left for a purchase');
  const key = randomBytes(12).toString('hex');
  const eventId = context.shopper.world.main;
  const answer = await until(async () => {
    const tried = await context.probeClient.call('POST', '/api/orders', {
      token: buyer.token,
      body: { eventId, paymentMethod: 'pix' },
      headers: { 'idempotency-key': key },
    });
    return tried.status === 201 && tried;
  });
  const { id, orderNumber, asaasPaymentId } = answer.body.order;
  const purchase: Purchase = { orderId: id, orderNumber, asaasPaymentId, eventId };
  context.shopper.record.purchases.set(id, purchase);
  await context.shopper.pay(purchase);
  return purchase;
}

/** A real request that only succeeds when `name` does its work again. */
function probeOf(context: FaultContext, name: string): () => Promise<void> {
  const { probeClient: client, reader, stack, db } = context;
  const ok = (method: string, path: string, token?: string, body?: unknown) => async () => {
    await until(async () => (await client.call(method, path, { token, body })).status === 200);
  };
  switch (name) {
    case 'identity':
      return ok('POST', '/api/auth/login', undefined, { email: reader.email, password: reader.password });
    case 'catalog':
      return ok('GET', `/api/events/${context.shopper.world.main}`);
    case 'orders':
      return ok('GET', '/api/orders?page=1', reader.token);
    case 'courtesy':
      return ok('GET', '/api/courtesy-links?page=1', context.shopper.world.adminToken);
    case 'certificates':
      return ok('GET', `/api/events/${context.shopper.world.main}/certificate`, context.shopper.world.adminToken);
    case 'tickets-verifier':
      return ok('POST', '/api/verify-ticket', context.shopper.world.doorStaff.token, {
        qrCodeData: 'T1.leitura-de-teste',
        eventId: context.shopper.world.main,
      });
    case 'gateway':
      return ok('GET', '/api/events');
    case 'payments':
      return async () => void (await probePurchase(context));
    case 'tickets-worker':
      return async () => {
        const { orderId } = await probePurchase(context);
        await until(async () => (await db.rows('select 1 from tickets.tickets where order_id = $1', [orderId])).length);
      };
    case 'mail':
      // A new account's verification code, delivered by e-mail.
      return async () => void (await registerPerson(stack, client, 'Sonda'));
    default:
      throw new Error(`no probe for ${name}`);
  }
}

/** SIGKILL to `name`; recovered once the supervisor's new process is ready and does real work. */
export async function killProcess(context: FaultContext, name: string): Promise<Recovery> {
  const { stack, timeline } = context;
  const probe = probeOf(context, name);
  const child = stack.supervisor.child(name);
  if (!child) throw new Error(`${name} is not running`);
  const end = timeline.begin(`kill ${name}`);
  const started = Date.now();
  child.kill('SIGKILL');
  await until(async () => stack.supervisor.child(name) !== child && (await answersOk(readyUrl(stack, name))));
  const readyMs = Date.now() - started;
  await probe();
  end();
  return { fault: `kill ${name}`, readyMs, recoveredMs: Date.now() - started };
}

/** Stops PostgreSQL and starts it again; recovered once every process is ready and orders are taken again. */
export async function restartPostgres(context: FaultContext): Promise<Recovery> {
  const { stack, timeline } = context;
  const end = timeline.begin('PostgreSQL restart');
  const started = Date.now();
  await stack.postgres.restart!();
  const restartedMs = Date.now() - started;
  const processes = [...stack.services.map((service) => service.name), 'gateway'];
  await until(async () =>
    (await Promise.all(processes.map((name) => answersOk(readyUrl(stack, name))))).every(Boolean),
  );
  const readyMs = Date.now() - started;
  await probePurchase(context);
  end();
  return {
    fault: 'PostgreSQL restart',
    readyMs,
    recoveredMs: Date.now() - started,
    note: `down for ${(restartedMs / 1000).toFixed(1)} s; recovered = an order accepted again`,
  };
}

/**
 * The bus goes down for `outageMs` while the load goes on (the Kafka brokers frozen, or the PostgreSQL bus's
 * connections cut). Recovered once every event written meanwhile was delivered: the outboxes are empty and every
 * ticket paid during the outage was issued.
 */
export async function busOutage(context: FaultContext, outageMs: number): Promise<Recovery> {
  const { stack, timeline, db, kafka, shopper } = context;
  const link = kafka ? { cut: kafka.pause, restore: kafka.resume } : stack.busLink;
  if (!link) throw new Error('the stack was started without a way to cut its bus');
  const end = timeline.begin('bus outage');
  const cutAt = Date.now();
  link.cut();
  await sleep(outageMs);
  const backlog = await db.unpublished();
  link.restore();
  end();
  const restored = Date.now();
  const paidMeanwhile = [...shopper.record.purchases.values()].filter(
    (purchase) => purchase.paidAt && purchase.paidAt >= cutAt && purchase.paidAt <= restored,
  );
  await until(async () => {
    if ((await db.unpublished()) > 0) return false;
    const issued = await db.rows('select order_id from tickets.tickets where order_id = any($1::uuid[])', [
      paidMeanwhile.map((purchase) => purchase.orderId),
    ]);
    return issued.length === paidMeanwhile.length;
  });
  return {
    fault: `bus outage (${outageMs / 1000} s)`,
    recoveredMs: Date.now() - restored,
    note: `${backlog} events waiting in outboxes at the end of the outage, ${paidMeanwhile.length} tickets paid meanwhile; recovered = all delivered`,
  };
}
