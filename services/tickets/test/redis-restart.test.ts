import { createServer as createHttpServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import {
  captureLogs,
  createTestIssuer,
  startPrivateRedis,
  startTestService,
  type TestService,
} from '@ticketing/testkit';
import { ticketsVerifierService, type TicketsConfig } from '../src/index.ts';
import { startTickets, waitFor, type Harness, type IssuedTicket } from './support.ts';

/**
 * Redis only caches session states for the door: a verifier whose Redis is killed and started again (empty) keeps
 * answering every scan, asking identity directly meanwhile, and never leaves rotation. This verifier checks tokens
 * for real (identity's keys and session states from a stand-in identity) against a Redis of its own.
 */
const REDIS_PREFIX = 'door:';
let redis: Awaited<ReturnType<typeof startPrivateRedis>>;
let tickets: Harness;
let verifier: TestService<TicketsConfig>;
let identity: Server;
let sessionLookups = 0;
const logs = captureLogs();

/** The session state the verifier's Redis holds for `userId`, or null (read with a connection of the test's own). */
async function cachedState(userId: string): Promise<string | null> {
  const client = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    return await client.get(`${REDIS_PREFIX}auth:session:${userId}`);
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

let issuer: Awaited<ReturnType<typeof createTestIssuer>>;

beforeAll(async () => {
  redis = await startPrivateRedis();
  issuer = await createTestIssuer();
  identity = createHttpServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/.well-known/jwks.json') return response.end(JSON.stringify(issuer.jwks));
    if (request.url?.startsWith('/internal/sessions/')) {
      sessionLookups++;
      const userId = decodeURIComponent(request.url.slice('/internal/sessions/'.length));
      return void issuer.sessionState(userId).then((state) => response.end(JSON.stringify({ state })));
    }
    response.statusCode = 404;
    response.end('{}');
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => identity.once('listening', resolve));
  tickets = await startTickets();
  verifier = await startTestService(ticketsVerifierService, {
    busSchema: tickets.busSchema,
    redisPrefix: REDIS_PREFIX,
    logStream: logs.stream,
    env: {
      DB_SCHEMA: tickets.schema,
      REDIS_URL: redis.url,
      IDENTITY_URL: `http://127.0.0.1:${(identity.address() as AddressInfo).port}`,
      LOG_LEVEL: 'info',
      // The door below scans as fast as it can, far beyond a staffer's budget.
      DOOR_READINGS_PER_MINUTE: '1000000',
    },
  });
});
afterAll(async () => {
  await verifier?.stop();
  await tickets?.stop();
  identity?.close();
  await redis?.kill();
});

interface Answer {
  status: number;
  result: unknown;
  phase: string;
}

test('the door answers every scan while its Redis is killed and started again, and stays ready', async () => {
  const eventId = randomUUID();
  const issued: IssuedTicket[] = [];
  for (let i = 0; i < 3; i++) issued.push(await tickets.issue({ eventId }));
  const staffId = randomUUID();
  const token = await issuer.sign({ id: staffId, roles: ['doorStaff'], name: 'Portaria' });
  await tickets.assignDoor([eventId], staffId);

  let phase = 'redis up';
  let running = true;
  const answers: Answer[] = [];
  const readiness: number[] = [];
  const scan = async (qrCodeData: string) => {
    const response = await fetch(`${verifier.url}/api/verify-ticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ qrCodeData, eventId }),
    });
    const body = (await response.json()) as { success?: unknown };
    answers.push({ status: response.status, result: body.success, phase });
  };
  const door = (async () => {
    for (let i = 0; running; i++) await scan(issued[i % issued.length]!.issued.qrText);
  })();
  const probes = (async () => {
    while (running) {
      readiness.push((await fetch(`${verifier.url}/readyz`)).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const answered = (count: number) => () => answers.filter((answer) => answer.phase === phase).length >= count;
  const health = async () => ((await (await fetch(`${verifier.url}/healthz`)).json()) as { status: string }).status;

  try {
    // Redis up: the session state is cached there.
    await waitFor(answered(20));
    expect(await cachedState(staffId)).not.toBeNull();

    phase = 'redis down';
    await redis.kill();
    const lookupsBefore = sessionLookups;
    await waitFor(answered(20));
    // Each check now asks identity: the cache is gone, not the door.
    expect(sessionLookups).toBeGreaterThan(lookupsBefore);
    await waitFor(async () => (await health()) === 'degraded');

    phase = 'redis back';
    await redis.start();
    // Back and empty: the verifier reconnects and caches the state again.
    await waitFor(async () => (await cachedState(staffId)) !== null);
    await waitFor(answered(20));
    await waitFor(async () => (await health()) === 'ok');
  } finally {
    running = false;
    await Promise.all([door, probes]);
  }

  const unanswered = answers.filter((answer) => answer.status !== 200 || typeof answer.result !== 'boolean');
  expect(unanswered).toEqual([]);
  expect(readiness.filter((status) => status !== 200)).toEqual([]);
  const warnings = logs.lines.filter((line) => line.msg === 'dependency down' && line.dependency === 'redis');
  expect(warnings).toHaveLength(1);
});
