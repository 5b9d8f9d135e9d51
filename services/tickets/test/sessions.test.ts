import { randomUUID } from 'node:crypto';
import type {
  DoorCountsView,
  DoorReadingsView,
  DoorTicketsView,
  EventSession,
  ParticipantsView,
} from '@ticketing/proto';
import { parseQrText } from '@ticketing/proto';
import { startTickets, withdrawalRequested, type Harness, type IssuedTicket, type ScanAnswer } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

const HOUR = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/**
 * A congress of two days as catalog announces it: day 1 ended yesterday, day 2's door is open now (it starts in an
 * hour), unless other sessions are given.
 */
async function congress(
  sessions: Omit<EventSession, 'id'>[] = [
    { startsAt: at(-26 * HOUR), endsAt: at(-16 * HOUR), title: 'Dia 1' },
    { startsAt: at(HOUR), endsAt: at(10 * HOUR), title: 'Dia 2' },
  ],
) {
  const eventId = randomUUID();
  const withIds = sessions.map((session) => ({ id: randomUUID(), ...session }));
  await tickets.handled(
    await tickets.emit('event.changed', {
      eventId,
      title: 'Congresso Brasileiro de Assuntos Regulatórios',
      date: withIds[0]!.startsAt,
      location: 'São Paulo – SP',
      price: '890.00',
      isActive: true,
      listed: true,
      maxAttendees: 800,
      sessions: withIds,
    }),
  );
  return { eventId, day1: withIds[0]!.id, day2: withIds[1]!.id };
}

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(tickets.verifier.url + path, {
    method,
    headers: {
      authorization: `Bearer ${tickets.admin.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : text) as any };
}

const scan = async (ticket: IssuedTicket, body: Record<string, unknown> = {}): Promise<ScanAnswer> => {
  const response = await tickets.verify({ qrCodeData: ticket.issued.qrText, eventId: ticket.order.eventId, ...body });
  expect(response.status).toBe(200);
  return (await response.json()) as ScanAnswer;
};

const admissionsOf = async (ticketId: string) =>
  ((await tickets.db('tickets').where({ id: ticketId }).first()) as { admissions: Record<string, { at: string }> })
    .admissions;

test('a ticket is admitted once per session: again in the second, refused twice in either', async () => {
  const { eventId, day1, day2 } = await congress();
  const guest = await tickets.issue({ eventId });

  const first = await scan(guest, { sessionId: day1 });
  expect(first).toMatchObject({ success: true, code: 'valid', sessionId: day1 });
  const again = await scan(guest, { sessionId: day1 });
  expect(again).toMatchObject({ success: false, code: 'already_used', sessionId: day1, usedAt: first.usedAt });

  // Without a session, the one whose door is open: day 2.
  const second = await scan(guest);
  expect(second).toMatchObject({ success: true, code: 'valid', sessionId: day2 });
  expect(await scan(guest, { sessionId: day2 })).toMatchObject({
    code: 'already_used',
    usedAt: second.usedAt,
  });

  expect(Object.keys(await admissionsOf(guest.issued.ticketId)).sort()).toEqual([day1, day2].sort());
  expect((await tickets.events('ticket.checked-in', guest.issued.ticketId)).map((event) => event.sessionId)).toEqual([
    day1,
    day2,
  ]);
  const scans = await tickets.db('scans').where({ ticket_id: guest.issued.ticketId }).orderBy('scanned_at');
  expect(scans.map((row) => [row.session_id, row.code])).toEqual([
    [day1, 'valid'],
    [day1, 'already_used'],
    [day2, 'valid'],
    [day2, 'already_used'],
  ]);
});

test('the door names only a session of its event: another is 400 in pt-BR and reads nothing', async () => {
  const { eventId } = await congress();
  const other = await congress();
  const guest = await tickets.issue({ eventId });
  for (const body of [
    { qrCodeData: guest.issued.qrText, eventId, sessionId: other.day1 },
    { qrCodeData: guest.issued.qrText, eventId, sessionId: 'dia-1' },
  ]) {
    const response = await tickets.verify(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^(Sessão não encontrada neste evento|Identificador da sessão)/,
    );
  }
  // A session without the door's event: the administrators' door of every event has no session to name.
  const unnamed = await tickets.verify({ qrCodeData: guest.issued.qrText, sessionId: other.day1 });
  expect(unnamed.status).toBe(400);
  expect(await admissionsOf(guest.issued.ticketId)).toEqual({});
  expect(await tickets.db('scans').where({ ticket_id: guest.issued.ticketId })).toEqual([]);
});

test('twenty simultaneous readings of one ticket, ten per session, admit it exactly once to each', async () => {
  const { eventId, day1, day2 } = await congress();
  const guest = await tickets.issue({ eventId });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => scan(guest, { sessionId: i % 2 === 0 ? day1 : day2 })),
  );
  const winners = answers.filter((answer) => answer.code === 'valid');
  expect(winners.map((answer) => answer.sessionId).sort()).toEqual([day1, day2].sort());
  expect(answers.filter((answer) => answer.code === 'already_used')).toHaveLength(18);
  expect(await tickets.events('ticket.checked-in', guest.issued.ticketId)).toHaveLength(2);
});

test('a reset undoes one session’s admission; the other stands, and orders hears the one left', async () => {
  const { eventId, day1, day2 } = await congress();
  const guest = await tickets.issue({ eventId });
  const second = await scan(guest, { sessionId: day2 });
  await scan(guest, { sessionId: day1 });

  const reset = await call('POST', `/api/reset-ticket/${guest.order.orderId}`, { sessionId: day1 });
  expect(reset).toMatchObject({ status: 200, body: { sessionId: day1 } });
  expect(Object.keys(await admissionsOf(guest.issued.ticketId))).toEqual([day2]);
  expect(await tickets.events('ticket.reset', guest.issued.ticketId)).toEqual([
    expect.objectContaining({ sessionId: day1, firstUsedAt: second.usedAt }),
  ]);
  expect(await tickets.db('resets').where({ ticket_id: guest.issued.ticketId })).toEqual([
    expect.objectContaining({ session_id: day1, previous_used_by: tickets.admin.id }),
  ]);
  // Not admitted to day 1 any more: a second reset of it is refused, and the door admits it again.
  expect(await call('POST', `/api/reset-ticket/${guest.order.orderId}`, { sessionId: day1 })).toEqual({
    status: 409,
    body: { message: 'Este ingresso ainda não foi utilizado nesta sessão' },
  });
  expect(await scan(guest, { sessionId: day1 })).toMatchObject({ code: 'valid' });

  // Without a session: every admission is undone at once.
  expect((await call('POST', `/api/reset-ticket/${guest.order.orderId}`)).status).toBe(200);
  expect(await admissionsOf(guest.issued.ticketId)).toEqual({});
  expect((await tickets.events('ticket.reset', guest.issued.ticketId)).at(-1)).toMatchObject({
    sessionId: null,
    firstUsedAt: null,
  });
});

test('a holder admitted on the second day only can no longer withdraw', async () => {
  const { eventId, day2 } = await congress();
  const guest = await tickets.issue({ eventId });
  await scan(guest, { sessionId: day2 });
  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(guest.order)));
  expect(await tickets.events('ticket.withdrawal-decided', guest.order.orderId)).toEqual([
    expect.objectContaining({ outcome: 'admitted' }),
  ]);
  expect(await tickets.db('tickets').where({ id: guest.issued.ticketId }).first()).toMatchObject({ status: 'valid' });
});

describe('offline readings of a session', () => {
  const reading = (ticket: IssuedTicket, readAt: string) => ({
    readingId: randomUUID(),
    claims: parseQrText(ticket.issued.qrText)!.claims,
    readAt,
    admitted: true,
  });
  const sync = async (deviceId: string, eventId: string, sessionId: string, readings: unknown[]) => {
    const { status, body } = await call('POST', '/api/door/readings', { deviceId, eventId, sessionId, readings });
    expect(status).toBe(200);
    return body as DoorReadingsView;
  };

  test('conflict within a session only: two phones admitting one guest to day 2, one of them to day 1 too', async () => {
    const { eventId, day1, day2 } = await congress();
    const guest = await tickets.issue({ eventId });
    const early = at(-2 * 60_000);
    const late = at(-60_000);

    expect((await sync('portaria-sul', eventId, day1, [reading(guest, at(-20 * HOUR))])).results).toEqual([
      expect.objectContaining({ outcome: 'recorded', code: 'valid' }),
    ]);
    expect((await sync('portaria-sul', eventId, day2, [reading(guest, early)])).results).toEqual([
      expect.objectContaining({ outcome: 'recorded', code: 'valid' }),
    ]);
    const north = await sync('portaria-norte', eventId, day2, [reading(guest, late)]);
    expect(north.results[0]).toMatchObject({
      outcome: 'conflict',
      conflict: {
        ticketId: guest.issued.ticketId,
        sessionId: day2,
        admissions: [
          { deviceId: 'portaria-sul', at: early },
          { deviceId: 'portaria-norte', at: late },
        ],
      },
    });
    expect(await tickets.db('door_conflicts').where({ ticket_id: guest.issued.ticketId })).toEqual([
      expect.objectContaining({ session_id: day2 }),
    ]);

    // The scanner's list says when the guest entered each session.
    const list = (await call('GET', `/api/door/events/${eventId}/tickets?deviceId=portaria-norte`))
      .body as DoorTicketsView;
    const admissions = list.tickets.find((ticket) => ticket.id === guest.issued.ticketId)!.admissions;
    expect(Object.keys(admissions).sort()).toEqual([day1, day2].sort());
    expect(admissions[day2]).toBe(early);
    expect(list.conflicts).toEqual([expect.objectContaining({ sessionId: day2 })]);
  });

  test('without a session, each reading is for the session whose door was open when it was read', async () => {
    const { eventId, day1, day2 } = await congress();
    const guest = await tickets.issue({ eventId });
    const { status } = await call('POST', '/api/door/readings', {
      deviceId: 'portaria-sul',
      eventId,
      readings: [reading(guest, at(-25 * HOUR)), reading(guest, at(-60_000))],
    });
    expect(status).toBe(200);
    expect(Object.keys(await admissionsOf(guest.issued.ticketId)).sort()).toEqual([day1, day2].sort());
  });
});

test('counts, look-up and participants follow each session', async () => {
  const { eventId, day1, day2 } = await congress();
  const [ana, bruno] = [
    await tickets.issue({ eventId, buyer: { name: 'Ana Sessões', email: 'ana@exemplo.com.br' } }),
    await tickets.issue({ eventId, buyer: { name: 'Bruno Sessões', email: 'bruno@exemplo.com.br' } }),
  ];
  await scan(ana!, { sessionId: day1, deviceId: 'portaria-sul' });
  await scan(ana!, { sessionId: day2, deviceId: 'portaria-norte' });
  await scan(bruno!, { sessionId: day2, deviceId: 'portaria-norte' });

  const counts = async (query: string) =>
    (await call('GET', `/api/door/events/${eventId}/counts${query}`)).body as DoorCountsView;
  expect(await counts(`?sessionId=${day1}`)).toMatchObject({
    sessionId: day1,
    admitted: 1,
    expected: 2,
    devices: [{ deviceId: 'portaria-sul', admitted: 1 }],
    sessions: [
      { sessionId: day1, admitted: 1 },
      { sessionId: day2, admitted: 2 },
    ],
  });
  // Without a session: the one whose door is open.
  const open = await counts('');
  expect(open).toMatchObject({ sessionId: day2, admitted: 2, devices: [{ deviceId: 'portaria-norte', admitted: 2 }] });
  expect(open.perMinute.reduce((sum, minute) => sum + minute.count, 0)).toBe(2);
  expect((await call('GET', `/api/door/events/${eventId}/counts?sessionId=${randomUUID()}`)).status).toBe(400);

  const search = async (sessionId: string) =>
    (await call('GET', `/api/door/events/${eventId}/search?q=Bruno&sessionId=${sessionId}`)).body;
  expect((await search(day1)).tickets).toEqual([
    expect.objectContaining({ holderName: 'Bruno Sessões', usedAt: null }),
  ]);
  expect((await search(day2)).tickets).toEqual([
    expect.objectContaining({ holderName: 'Bruno Sessões', usedAt: expect.any(String) }),
  ]);

  const list = (await call('GET', `/api/admin/tickets?eventId=${eventId}&checkedIn=true&sessionId=${day1}`))
    .body as ParticipantsView;
  expect(list.tickets.map((ticket) => ticket.holderName)).toEqual(['Ana Sessões']);
  expect(list.sessions).toEqual([
    expect.objectContaining({ id: day1, label: expect.stringMatching(/^Dia 1 — \d{2}\/\d{2}$/), checkedIn: 1 }),
    expect.objectContaining({ id: day2, label: expect.stringMatching(/^Dia 2 — \d{2}\/\d{2}$/), checkedIn: 2 }),
  ]);
  expect(Object.keys(list.tickets[0]!.admissions).sort()).toEqual([day1, day2].sort());

  const csv = (await call('GET', `/api/admin/tickets/export.csv?eventId=${eventId}`)).body as string;
  const [header, ...rows] = csv.trim().split(/\r?\n/);
  expect(header).toMatch(/Entrada — Dia 1 — \d{2}\/\d{2}.*Entrada — Dia 2 — \d{2}\/\d{2}/);
  const bruno_ = rows.find((row) => row.includes('Bruno Sessões'))!;
  // Bruno entered on day 2 only: his day-1 cell is empty, his day-2 cell a time.
  expect(bruno_).toMatch(/;Válido;;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

  const metrics = await (await fetch(`${tickets.verifier.url}/metrics`)).text();
  expect(metrics).toMatch(
    new RegExp(`^door_session_readings_total\\{session="${day2}",outcome="admitted"[^}]*\\} 2$`, 'm'),
  );
});
