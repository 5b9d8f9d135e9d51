import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { startPrivateRedis, startTestService, type TestService } from '@ticketing/testkit';
import type { DoorCountsView } from '@ticketing/proto';
import { ticketsVerifierService, type TicketsConfig } from '../src/index.ts';
import { orderRefunded, startTickets, waitFor, type Harness, type IssuedTicket, ticketRows } from './support.ts';

/**
 * Live arrival counts: the worker hears every change to an event's tickets on the bus and notices the verifiers
 * over Redis; each verifier streams fresh counts (Server-Sent Events) to the door panels connected to it.
 */
let tickets: Harness;
/** Two verifier replicas sharing the worker's Redis prefix, as the tickets processes do when deployed. */
let replicas: TestService<TicketsConfig>[];
const opened: Panel[] = [];

const replicaOptions = () => ({
  busSchema: tickets.busSchema,
  redisPrefix: tickets.worker.redis.options.keyPrefix,
  verifyToken: tickets.verifier.verifyToken,
  logStream: tickets.logs.stream,
  env: { DB_SCHEMA: tickets.schema, LOG_LEVEL: 'info' },
});

beforeAll(async () => {
  tickets = await startTickets();
  replicas = await Promise.all([
    startTestService(ticketsVerifierService, replicaOptions()),
    startTestService(ticketsVerifierService, replicaOptions()),
  ]);
});
afterAll(async () => {
  for (const panel of opened) panel.close();
  for (const replica of replicas ?? []) await replica.stop();
  await tickets?.stop();
});

interface Panel {
  response: Response;
  /** Every `counts` message so far, with when it arrived (performance.now()). */
  received: { view: DoorCountsView; at: number }[];
  close(): void;
}

/** A door panel: the live stream of an event's counts, read as a browser would (fetch with the door's token). */
async function openPanel(service: TestService<TicketsConfig>, eventId: string, token = tickets.doorStaffToken) {
  const controller = new AbortController();
  const response = await fetch(`${service.url}/api/door/events/${eventId}/live`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const panel: Panel = { response, received: [], close: () => controller.abort() };
  opened.push(panel);
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const fields = new Map(
            buffer
              .slice(0, end)
              .split('\n')
              .filter((line) => !line.startsWith(':'))
              .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trimStart()]),
          );
          buffer = buffer.slice(end + 2);
          if (fields.get('event') === 'counts')
            panel.received.push({ view: JSON.parse(fields.get('data')!) as DoorCountsView, at: performance.now() });
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return panel;
}

/** Waits until the panel's latest counts read as expected; resolves with them and when they arrived. */
function shows(panel: Panel, expected: Partial<DoorCountsView>) {
  return waitFor(() => {
    const last = panel.received.at(-1);
    return (
      last &&
      Object.entries(expected).every(([key, value]) =>
        isDeepStrictEqual(last.view[key as keyof DoorCountsView], value),
      ) &&
      last
    );
  });
}

function countsOf(service: TestService<TicketsConfig>, eventId: string) {
  return fetch(`${service.url}/api/door/events/${eventId}/counts`, {
    headers: { authorization: `Bearer ${tickets.doorStaffToken}` },
  });
}

/** Admits a ticket at the event's door, from a device, through a verifier; returns when the reading was sent. */
async function admit(ticket: IssuedTicket, deviceId: string, via: TestService<TicketsConfig>, token?: string) {
  const sentAt = performance.now();
  const response = await tickets.verify(
    { qrCodeData: ticket.issued.qrText, eventId: ticket.order.eventId, deviceId },
    { via, token: token ?? tickets.doorStaffToken },
  );
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ success: true, code: 'valid' });
  return sentAt;
}

/** Arrivals per minute as the counts must show them: the last 30 minutes, the current one last, quiet ones 0. */
async function expectedMinutes(eventId: string, at: string) {
  const rows = (await ticketRows(tickets.db, { event_id: eventId, status: 'valid' })).filter((row) => row.used_at);
  const current = Math.floor(Date.parse(at) / 60_000) * 60_000;
  return Array.from({ length: 30 }, (_, i) => {
    const minute = current - (29 - i) * 60_000;
    const count = rows.filter((row) => Math.floor(row.used_at.getTime() / 60_000) * 60_000 === minute).length;
    return { minute: new Date(minute).toISOString(), count };
  });
}

test('door panels on every verifier replica follow admissions, resets and cancellations live', async () => {
  const eventId = randomUUID();
  await tickets.assignDoor([eventId]);
  const first = await tickets.issue({ eventId });
  const panels = [await openPanel(replicas[0]!, eventId), await openPanel(replicas[1]!, eventId, tickets.admin.token)];
  for (const { response } of panels) {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
  }
  for (const panel of panels) await shows(panel, { eventId, admitted: 0, expected: 1, devices: [] });
  const second = await tickets.issue({ eventId });
  for (const panel of panels) await shows(panel, { admitted: 0, expected: 2 });
  // The stream is logged (and measured) when it opens, not when it ends.
  expect(tickets.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'request', path: `/api/door/events/${eventId}/live`, status: 200 }),
  );

  const admittedAt = await admit(first, 'porta-norte-01', replicas[0]!);
  const devices = [{ deviceId: 'porta-norte-01', staffName: 'Equipe da portaria', admitted: 1 }];
  const updates = await Promise.all(panels.map((panel) => shows(panel, { admitted: 1, expected: 2, devices })));
  console.log(
    `admission -> live counts: ${updates.map((update) => `${Math.round(update.at - admittedAt)} ms`).join(', ')}`,
  );
  const streamed = updates[0]!.view;
  expect(streamed.perMinute).toEqual(await expectedMinutes(eventId, streamed.at));

  // The JSON answer is the same reading of the counts.
  const response = await countsOf(replicas[1]!, eventId);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const counts = (await response.json()) as DoorCountsView;
  expect(counts).toEqual({ ...streamed, perMinute: await expectedMinutes(eventId, counts.at), at: counts.at });
  expect(Date.parse(counts.at)).toBeGreaterThanOrEqual(Date.parse(streamed.at));

  expect((await tickets.reset(first.order.orderId)).status).toBe(200);
  for (const panel of panels) await shows(panel, { admitted: 0, expected: 2, devices: [] });

  await tickets.emit('order.refunded', orderRefunded(second.order));
  for (const panel of panels) await shows(panel, { admitted: 0, expected: 1 });
});

test('arrivals are counted per device, the busiest first, named after who read there last', async () => {
  const eventId = randomUUID();
  await tickets.assignDoor([eventId]);
  const guests: IssuedTicket[] = [];
  for (let i = 0; i < 4; i++) guests.push(await tickets.issue({ eventId }));
  const panel = await openPanel(replicas[1]!, eventId);
  await shows(panel, { expected: 4, admitted: 0 });

  await admit(guests[0]!, 'porta-sul-0001', replicas[0]!, tickets.admin.token);
  await admit(guests[1]!, 'porta-leste-01', replicas[0]!);
  await admit(guests[2]!, 'porta-leste-01', replicas[1]!);
  const devices = [
    { deviceId: 'porta-leste-01', staffName: 'Equipe da portaria', admitted: 2 },
    { deviceId: 'porta-sul-0001', staffName: 'Portaria', admitted: 1 },
  ];
  const { view } = await shows(panel, { admitted: 3, expected: 4, devices });
  expect(view.perMinute).toEqual(await expectedMinutes(eventId, view.at));
  expect(view.perMinute.reduce((sum, minute) => sum + minute.count, 0)).toBe(3);
  expect(await (await countsOf(replicas[0]!, eventId)).json()).toMatchObject({ admitted: 3, expected: 4, devices });
});

test('only door staff and administrators see the counts', async () => {
  const eventId = randomUUID();
  for (const path of ['counts', 'live']) {
    const url = `${replicas[0]!.url}/api/door/events/${eventId}/${path}`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Não autenticado. Faça login para continuar.' });
    const buyer = await fetch(url, { headers: { authorization: `Bearer ${tickets.userToken}` } });
    expect(buyer.status).toBe(403);
    expect(await buyer.json()).toEqual({ message: 'Acesso restrito à equipe de portaria' });
  }
});

test('an event id that is not one is refused in pt-BR', async () => {
  for (const path of ['counts', 'live']) {
    const response = await fetch(`${replicas[0]!.url}/api/door/events/nao-e-um-evento/${path}`, {
      headers: { authorization: `Bearer ${tickets.doorStaffToken}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Identificador do evento inválido' });
  }
  // A well-formed id of an event without tickets has nothing to count yet.
  const quiet = randomUUID();
  await tickets.assignDoor([quiet]);
  const empty = (await (await countsOf(replicas[0]!, quiet)).json()) as DoorCountsView;
  expect(empty).toMatchObject({ admitted: 0, expected: 0, devices: [] });
  expect(empty.perMinute.every((minute) => minute.count === 0)).toBe(true);
});

test('through a Redis outage the stream stays open, and the counts catch up once Redis is back', async () => {
  const redis = await startPrivateRedis();
  const verifier = await startTestService(ticketsVerifierService, {
    ...replicaOptions(),
    env: { ...replicaOptions().env, REDIS_URL: redis.url },
  });
  try {
    const eventId = randomUUID();
    await tickets.assignDoor([eventId]);
    const guest = await tickets.issue({ eventId });
    const panel = await openPanel(verifier, eventId);
    await shows(panel, { admitted: 0, expected: 1 });

    await redis.kill();
    await admit(guest, 'porta-oeste-01', verifier);
    expect(await (await countsOf(verifier, eventId)).json()).toMatchObject({ admitted: 1 });
    // The notice of that admission was lost with Redis; reconnecting reads the counts again.
    await redis.start();
    await shows(panel, { admitted: 1, expected: 1 });
    panel.close();
  } finally {
    await verifier.stop();
    await redis.kill();
  }
});
