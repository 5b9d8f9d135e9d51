import { randomUUID } from 'node:crypto';
import type { DoorReadingsView, DoorSearchView, DoorTicketsView } from '@ticketing/proto';
import { parseQrText } from '@ticketing/proto';
import { startTickets, waitFor, type Harness, type IssuedTicket, ticketRows } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

async function call(method: 'GET' | 'POST', path: string, body?: unknown, token: string | null = tickets.admin.token) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(tickets.verifier.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function ticketList(eventId: string, query: Record<string, string> = {}): Promise<DoorTicketsView> {
  const { status, body } = await call('GET', `/api/door/events/${eventId}/tickets?${new URLSearchParams(query)}`);
  expect(status).toBe(200);
  return body as DoorTicketsView;
}

async function sync(deviceId: string, eventId: string, readings: unknown[]): Promise<DoorReadingsView> {
  const { status, body } = await call('POST', '/api/door/readings', { deviceId, eventId, readings });
  expect({ status, body }).toEqual({ status: 200, body: expect.anything() });
  return body as DoorReadingsView;
}

async function search(eventId: string, q: string): Promise<DoorSearchView> {
  const { status, body } = await call('GET', `/api/door/events/${eventId}/search?${new URLSearchParams({ q })}`);
  expect(status).toBe(200);
  return body as DoorSearchView;
}

/** A reading as the door phone keeps it: the claims of the QR code it checked, never the QR text. */
const reading = (ticket: IssuedTicket, readAt: string, admitted = true) => ({
  readingId: randomUUID(),
  claims: parseQrText(ticket.issued.qrText)!.claims,
  readAt,
  admitted,
});

const ticketRow = async (id: string) => (await ticketRows(tickets.db, { id }))[0]!;
const checkIns = (ticketId: string) => tickets.events('ticket.checked-in', ticketId);

async function issueAll(eventId: string, count: number): Promise<IssuedTicket[]> {
  const issued: IssuedTicket[] = [];
  for (let i = 0; i < count; i++) issued.push(await tickets.issue({ eventId }));
  return issued;
}

/** The verifier's door_readings_total by outcome. */
async function readingCounts(): Promise<Record<string, number>> {
  const text = await (await fetch(`${tickets.verifier.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, outcome, value] of text.matchAll(/^door_readings_total\{outcome="(\w+)"[^}]*\} (\d+)$/gm))
    counts[outcome!] = Number(value);
  return counts;
}

describe('the ticket list a scanner keeps', () => {
  test('lists the event, then only what changed after the revision it answered', async () => {
    const eventId = randomUUID();
    const [first, second, third] = await issueAll(eventId, 3);
    await tickets.issue();
    const all = await ticketList(eventId);
    expect(all.eventId).toBe(eventId);
    expect(all.conflicts).toEqual([]);
    expect(new Set(all.tickets)).toEqual(
      new Set(
        [first!, second!, third!].map(({ issued, order }) => ({
          id: issued.ticketId,
          orderId: order.orderId,
          version: 1,
          holderName: 'Maria da Silva',
          ticketType: null,
          status: 'valid',
          admissions: {},
        })),
      ),
    );

    expect((await tickets.scan(second!.issued.qrText, eventId)).code).toBe('valid');
    const changed = await ticketList(eventId, { after: all.revision });
    const used = await ticketRow(second!.issued.ticketId);
    expect(changed.tickets).toEqual([
      expect.objectContaining({ id: used.id, admissions: { [eventId]: used.used_at.toISOString() } }),
    ]);
    expect(BigInt(changed.revision)).toBeGreaterThan(BigInt(all.revision));
    expect((await ticketList(eventId, { after: changed.revision })).tickets).toEqual([]);
  });

  test('a change committed after a later one was drawn is not skipped: the list waits for it', async () => {
    const eventId = randomUUID();
    const [slow, fast] = await issueAll(eventId, 2);
    const { revision } = await ticketList(eventId);

    // A change that draws its revision first and commits last.
    const trx = await tickets.db.transaction();
    try {
      await trx('tickets').where({ id: slow!.issued.ticketId }).update({ status: 'cancelled' });
      expect((await tickets.scan(fast!.issued.qrText, eventId)).code).toBe('valid');
      const [slowRow, fastRow] = await Promise.all(
        [slow!, fast!].map(({ issued }) => trx('tickets').where({ id: issued.ticketId }).first()),
      );
      expect(BigInt(slowRow.revision)).toBeLessThan(BigInt(fastRow.revision));

      const asked = ticketList(eventId, { after: revision });
      await waitFor(async () => {
        const { rows } = await tickets.db.raw(
          `select 1 from pg_locks
           where locktype = 'advisory' and not granted
             and objid = (hashtext(? || ':' || ?)::bigint & 4294967295)::oid`,
          [`ticket-revision:${tickets.schema}`, eventId],
        );
        return rows.length > 0;
      });
      await trx.commit();
      const answer = await asked;
      expect(
        answer.tickets.map((ticket) => [ticket.id, ticket.status, Object.keys(ticket.admissions).length > 0]).sort(),
      ).toEqual(
        [
          [slow!.issued.ticketId, 'cancelled', false],
          [fast!.issued.ticketId, 'valid', true],
        ].sort(),
      );
      expect((await ticketList(eventId, { after: answer.revision })).tickets).toEqual([]);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
  });

  test('a bad event id or revision is a 400 in pt-BR; only door staff and administrators read it', async () => {
    expect(await call('GET', '/api/door/events/evento-1/tickets')).toEqual({
      status: 400,
      body: { message: 'Identificador do evento inválido' },
    });
    expect(await call('GET', `/api/door/events/${randomUUID()}/tickets?after=-1`)).toEqual({
      status: 400,
      body: { message: 'Revisão inválida' },
    });
    expect(await call('GET', `/api/door/events/${randomUUID()}/tickets?deviceId=a`)).toEqual({
      status: 400,
      body: { message: 'Identificador do dispositivo inválido' },
    });
    expect(await call('GET', `/api/door/events/${randomUUID()}/tickets`, undefined, tickets.userToken)).toEqual({
      status: 403,
      body: { message: 'Acesso restrito à equipe de portaria' },
    });
    expect((await call('GET', `/api/door/events/${randomUUID()}/tickets`, undefined, null)).status).toBe(401);
    const assigned = randomUUID();
    await tickets.assignDoor([assigned]);
    const staff = await call('GET', `/api/door/events/${assigned}/tickets`, undefined, tickets.doorStaffToken);
    expect(staff).toEqual({ status: 200, body: expect.objectContaining({ tickets: [], conflicts: [] }) });
  });
});

describe('readings synced after a network drop', () => {
  test('admit at the time read, once however often they are sent', async () => {
    const eventId = randomUUID();
    const [one, two] = await issueAll(eventId, 2);
    const readAt = '2026-11-25T21:00:00.000Z';
    const readings = [reading(one!, readAt), reading(two!, '2026-11-25T21:00:03.000Z')];

    const first = await sync('portaria-sul-01', eventId, readings);
    expect(first.results).toEqual([
      { readingId: readings[0]!.readingId, outcome: 'recorded', code: 'valid', ticketId: one!.issued.ticketId },
      { readingId: readings[1]!.readingId, outcome: 'recorded', code: 'valid', ticketId: two!.issued.ticketId },
    ]);
    expect(await ticketRow(one!.issued.ticketId)).toMatchObject({
      used_at: new Date(readAt),
      used_by: tickets.admin.id,
      used_device: 'portaria-sul-01',
    });
    expect(await checkIns(one!.issued.ticketId)).toEqual([
      {
        ticketId: one!.issued.ticketId,
        orderId: one!.order.orderId,
        eventId,
        sessionId: eventId,
        usedAt: readAt,
        scannedBy: tickets.admin.id,
      },
    ]);

    // The answer was lost: the device sends the batch again.
    expect(await sync('portaria-sul-01', eventId, readings)).toEqual(first);
    const scans = await tickets.db('scans').whereIn(
      'reading_id',
      readings.map((entry) => entry.readingId),
    );
    expect(scans).toHaveLength(2);
    expect(scans[0]).toMatchObject({ device_id: 'portaria-sul-01', staff_name: 'Portaria', door_event_id: eventId });
    expect(await checkIns(one!.issued.ticketId)).toHaveLength(1);

    // Read again on the same device later: already used, not a conflict.
    const again = await sync('portaria-sul-01', eventId, [reading(one!, '2026-11-25T21:05:00.000Z')]);
    expect(again.results[0]).toMatchObject({ outcome: 'recorded', code: 'already_used' });

    // A device clock ahead of the server is not believed.
    const [late] = await issueAll(eventId, 1);
    await sync('portaria-sul-01', eventId, [reading(late!, '2099-01-01T00:00:00.000Z')]);
    expect((await ticketRow(late!.issued.ticketId)).used_at.getTime()).toBeLessThanOrEqual(Date.now());
  });

  test('one ticket admitted on two devices: the earliest admission stands, both are told, one admission stored', async () => {
    const eventId = randomUUID();
    const [ticket] = await issueAll(eventId, 1);
    const early = '2026-11-25T21:00:01.000Z';
    const later = '2026-11-25T21:00:05.000Z';

    const north = await sync('portaria-norte-1', eventId, [reading(ticket!, later)]);
    expect(north.results[0]).toMatchObject({ code: 'valid' });
    const south = await sync('portaria-sul-01', eventId, [reading(ticket!, early)]);
    const conflict = {
      ticketId: ticket!.issued.ticketId,
      sessionId: eventId,
      holderName: 'Maria da Silva',
      admissions: [
        { deviceId: 'portaria-sul-01', at: early },
        { deviceId: 'portaria-norte-1', at: later },
      ],
    };
    expect(south.results[0]).toMatchObject({ outcome: 'conflict', code: 'conflict', conflict });

    expect(await ticketRow(ticket!.issued.ticketId)).toMatchObject({
      used_at: new Date(early),
      used_device: 'portaria-sul-01',
    });
    expect(await tickets.db('door_conflicts').where({ ticket_id: ticket!.issued.ticketId })).toHaveLength(1);
    expect(await checkIns(ticket!.issued.ticketId)).toHaveLength(1);
    for (const deviceId of ['portaria-norte-1', 'portaria-sul-01']) {
      expect((await ticketList(eventId, { deviceId })).conflicts).toEqual([conflict]);
    }
    expect((await ticketList(eventId, { deviceId: 'portaria-leste' })).conflicts).toEqual([]);

    // A third device later than the kept admission: the kept one stays.
    const east = await sync('portaria-leste', eventId, [reading(ticket!, '2026-11-25T21:10:00.000Z')]);
    expect(east.results[0]!.conflict!.admissions).toEqual([
      { deviceId: 'portaria-sul-01', at: early },
      { deviceId: 'portaria-leste', at: '2026-11-25T21:10:00.000Z' },
    ]);
    expect(await ticketRow(ticket!.issued.ticketId)).toMatchObject({ used_at: new Date(early) });
  });

  test('a ticket admitted online, and earlier offline on another device, moves to the earlier admission', async () => {
    const eventId = randomUUID();
    const [ticket] = await issueAll(eventId, 1);
    const online = await tickets.verify({ qrCodeData: ticket!.issued.qrText, eventId, deviceId: 'celular-online' });
    expect(await online.json()).toMatchObject({ code: 'valid' });
    const usedAt = (await ticketRow(ticket!.issued.ticketId)).used_at as Date;
    const earlier = new Date(usedAt.getTime() - 60_000).toISOString();
    const offline = await sync('celular-offline', eventId, [reading(ticket!, earlier)]);
    expect(offline.results[0]!.conflict!.admissions).toEqual([
      { deviceId: 'celular-offline', at: earlier },
      { deviceId: 'celular-online', at: usedAt.toISOString() },
    ]);
    expect(await ticketRow(ticket!.issued.ticketId)).toMatchObject({
      used_at: new Date(earlier),
      used_device: 'celular-offline',
    });
    expect(await checkIns(ticket!.issued.ticketId)).toHaveLength(1);
  });

  test('readings the door refused are recorded with the server code and never admit', async () => {
    const eventId = randomUUID();
    const [unused, cancelled] = await issueAll(eventId, 2);
    await tickets.db('tickets').where({ id: cancelled!.issued.ticketId }).update({ status: 'cancelled' });
    const elsewhere = await tickets.issue();
    const at = '2026-11-25T21:00:00.000Z';
    const readings = [
      reading(unused!, at, false),
      reading(cancelled!, at),
      reading(elsewhere, at),
      { ...reading(unused!, at), claims: null },
    ];
    const { results } = await sync('portaria-sul-01', eventId, readings);
    expect(results.map(({ code, outcome, ticketId }) => ({ code, outcome, ticketId }))).toEqual([
      { code: 'invalid', outcome: 'recorded', ticketId: unused!.issued.ticketId },
      { code: 'cancelled', outcome: 'recorded', ticketId: cancelled!.issued.ticketId },
      { code: 'wrong_event', outcome: 'recorded', ticketId: elsewhere.issued.ticketId },
      { code: 'invalid', outcome: 'recorded', ticketId: null },
    ]);
    for (const { issued } of [unused!, cancelled!, elsewhere]) {
      expect(await ticketRow(issued.ticketId)).toMatchObject({ used_at: null, used_device: null });
      expect(await checkIns(issued.ticketId)).toEqual([]);
    }
    const scans = await tickets.db('scans').whereIn(
      'reading_id',
      readings.map((entry) => entry.readingId),
    );
    expect(scans).toHaveLength(4);
  });

  test('bad batches are a 400 in pt-BR and record nothing', async () => {
    const eventId = randomUUID();
    const valid = { readingId: randomUUID(), claims: null, readAt: new Date().toISOString(), admitted: true };
    const cases: [unknown, string][] = [
      [{ eventId, readings: [valid] }, 'Identificador do dispositivo inválido'],
      [{ deviceId: 'portaria-sul-01', eventId, readings: [] }, 'Leituras inválidas'],
      [{ deviceId: 'portaria-sul-01', eventId: 'x', readings: [valid] }, 'Identificador do evento inválido'],
      [
        { deviceId: 'portaria-sul-01', eventId, readings: [{ ...valid, readAt: 'ontem' }] },
        'Horário da leitura inválido',
      ],
      [
        { deviceId: 'portaria-sul-01', eventId, readings: [{ ...valid, claims: { ticketId: 'x', version: 1 } }] },
        'Leituras inválidas',
      ],
      [
        { deviceId: 'portaria-sul-01', eventId, readings: [{ ...valid, qrCodeData: 'T1.x', claims: undefined }] },
        'Leituras inválidas',
      ],
      [
        { deviceId: 'portaria-sul-01', eventId, readings: Array(501).fill(valid) },
        'Envie no máximo 500 leituras por vez',
      ],
    ];
    for (const [body, message] of cases) {
      expect(await call('POST', '/api/door/readings', body)).toEqual({ status: 400, body: { message } });
    }
    expect(await tickets.db('scans').where({ reading_id: valid.readingId })).toEqual([]);
  });
});

describe('the manual look-up', () => {
  let guest: IssuedTicket;
  let eventId: string;
  beforeAll(async () => {
    eventId = randomUUID();
    guest = await tickets.issue({
      eventId,
      buyer: { name: 'Conceição Araújo', email: 'conceicao.araujo@exemplo.com.br', cpf: '529.982.247-25' },
    });
    await tickets.issue({ eventId, buyer: { name: 'Pedro Lima', email: 'pedro@exemplo.com.br', cpf: null } });
    await tickets.issue({ buyer: { name: 'Conceição Araújo', email: 'outra@exemplo.com.br', cpf: '52998224725' } });
  });

  test('finds a guest by name words, whole CPF, whole e-mail or order number, masked, and admits from the result', async () => {
    const hit = {
      ticketId: guest.issued.ticketId,
      orderId: guest.order.orderId,
      orderNumber: guest.order.orderNumber,
      ticketType: null,
      holderName: 'Conceição Araújo',
      holderEmail: 'c***@exemplo.com.br',
      cpf: '***.982.247-**',
      status: 'valid',
      usedAt: null,
    };
    expect(await tickets.db('tickets').where({ id: guest.issued.ticketId }).first()).toMatchObject({
      holder_cpf: '52998224725',
    });
    for (const q of [
      'conceicao',
      'ARAÚJO',
      '529.982.247-25',
      '52998224725',
      'CONCEICAO.ARAUJO@exemplo.com.br',
      'araujo conceição',
      guest.order.orderNumber,
    ]) {
      expect({ q, found: await search(eventId, q) }).toEqual({ q, found: { tickets: [hit] } });
    }
    expect((await search(eventId, 'pedro')).tickets).toEqual([expect.objectContaining({ cpf: null })]);
    expect((await search(eventId, '100%')).tickets).toEqual([]);

    await tickets.assignDoor([eventId]);
    const admitted = await call(
      'POST',
      `/api/door/events/${eventId}/tickets/${hit.ticketId}/admit`,
      { deviceId: 'portaria-sul-01' },
      tickets.doorStaffToken,
    );
    expect(admitted).toEqual({
      status: 200,
      body: expect.objectContaining({ success: true, code: 'valid', ticketId: guest.issued.ticketId }),
    });
    // Recorded as a reading at this door, like a scan.
    expect(await tickets.db('scans').where({ ticket_id: guest.issued.ticketId })).toEqual([
      expect.objectContaining({ code: 'valid', door_event_id: eventId, device_id: 'portaria-sul-01' }),
    ]);
    expect(await checkIns(guest.issued.ticketId)).toHaveLength(1);
    expect((await search(eventId, 'conceição')).tickets[0]!.usedAt).toEqual(expect.any(String));
  });

  test('a query too short or too long is a 400 in pt-BR', async () => {
    for (const [q, message] of [
      ['ab', 'Digite ao menos 3 caracteres para buscar'],
      ['x'.repeat(101), 'Busca longa demais'],
    ]) {
      const path = `/api/door/events/${eventId}/search?${new URLSearchParams({ q: q! })}`;
      expect(await call('GET', path)).toEqual({ status: 400, body: { message } });
    }
    expect(await call('GET', `/api/door/events/${eventId}/search`)).toEqual({
      status: 400,
      body: { message: 'Digite ao menos 3 caracteres para buscar' },
    });
  });
});

test('door_readings_total counts online and synced readings by outcome', async () => {
  const eventId = randomUUID();
  const [first, second, third] = await issueAll(eventId, 3);
  const before = await readingCounts();
  await tickets.scan(first!.issued.qrText, eventId);
  await tickets.scan(first!.issued.qrText, eventId);
  await tickets.scan('não é um ingresso', eventId);
  await tickets.scan(second!.issued.qrText, randomUUID());
  await sync('portaria-sul-01', eventId, [reading(third!, '2026-11-25T21:00:00.000Z')]);
  const conflicted = reading(third!, '2026-11-25T20:59:00.000Z');
  await sync('portaria-norte-1', eventId, [conflicted]);
  await sync('portaria-norte-1', eventId, [conflicted]);
  const after = await readingCounts();
  const delta = Object.fromEntries(Object.keys(after).map((key) => [key, after[key]! - (before[key] ?? 0)]));
  expect(delta).toEqual({ admitted: 2, duplicate: 1, invalid: 1, wrong_event: 1, cancelled: 0, conflict: 1 });
});
