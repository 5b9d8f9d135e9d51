import { randomUUID } from 'node:crypto';
import { sessionMessages, type AdminEventView, type EventView } from '@ticketing/proto';
import { DAY, inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const HOUR = 60 * 60 * 1000;

const admin = (method: string, path: string, body?: unknown) =>
  catalog.request(method, `/api/admin/events${path}`, { token: catalog.adminToken, body });

const patch = (id: string, body: unknown) =>
  catalog.request('PATCH', `/api/events/${id}`, { token: catalog.adminToken, body });

/** A session `hours` long starting `day` days and `hour` hours after midnight UTC of 30 days from now. */
function session(day: number, hour: number, hours: number, title: string | null = null) {
  const base = new Date(inDays(30));
  base.setUTCHours(0, 0, 0, 0);
  const startsAt = new Date(base.getTime() + day * DAY + hour * HOUR);
  return { startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + hours * HOUR).toISOString(), title };
}

/** The two days of a congress, 08:00–18:00 in São Paulo (11:00–21:00 UTC). */
const congress = () => [session(0, 11, 10, 'Dia 1'), session(1, 11, 10, 'Dia 2')];

async function messageOf(response: Response): Promise<{ status: number; message: string }> {
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}

test('an event created with sessions answers them by start, dated by the first; the announcement carries them', async () => {
  const [first, second] = congress();
  const event = await catalog.createEvent({ date: undefined, sessions: [second, first] });

  expect(event.date).toBe(first!.startsAt);
  expect(event.sessions).toEqual([
    { ...first, id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    { ...second, id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
  ]);
  expect(event.sessions[0]!.id).not.toBe(event.sessions[1]!.id);
  const read = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(read.sessions).toEqual(event.sessions);
  const listed = (await (await catalog.request('GET', '/api/events')).json()) as EventView[];
  expect(listed.find((other) => other.id === event.id)?.sessions).toEqual(event.sessions);
  expect(await catalog.changes(event.id)).toEqual([
    expect.objectContaining({ eventId: event.id, date: first!.startsAt, sessions: event.sessions }),
  ]);

  // A date given with the sessions must be the first start.
  const dated = await catalog.createEvent({ date: first!.startsAt, sessions: [first] });
  expect(dated.sessions).toEqual([{ ...first, id: expect.any(String) }]);
});

test('a schedule that is not one is refused, in Portuguese, and nothing is stored', async () => {
  const title = `Recusado ${randomUUID()}`;
  const cases: [unknown, Record<string, unknown>, string][] = [
    ['overlap', { sessions: [session(0, 11, 4), session(0, 14, 4)] }, sessionMessages.overlap],
    ['too long', { sessions: [session(0, 11, 25)] }, sessionMessages.tooLong],
    [
      'end before start',
      { sessions: [{ ...session(0, 11, 4), endsAt: session(0, 10, 1).startsAt }] },
      sessionMessages.endBeforeStart,
    ],
    [
      'date not first',
      { date: session(0, 12, 1).startsAt, sessions: [session(0, 11, 4)] },
      sessionMessages.dateNotFirst,
    ],
    ['id on a new event', { sessions: [{ ...session(0, 11, 4), id: randomUUID() }] }, sessionMessages.unknown],
    ['no session', { sessions: [] }, sessionMessages.required],
  ];
  for (const [name, fields, message] of cases) {
    const response = await catalog.request('POST', '/api/events', {
      token: catalog.adminToken,
      body: { title, location: 'Recife – PE', price: '10.00', ...fields },
    });
    expect({ name, ...(await messageOf(response)) }).toEqual({ name, status: 400, message });
  }
  expect(await catalog.service.db('events').where({ title })).toEqual([]);
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('an edit replaces the schedule: a session sent with its id keeps it, one without is new, one left out is gone', async () => {
  const event = await catalog.createEvent({ date: undefined, sessions: congress() });
  const [day1, day2] = event.sessions;
  const other = await catalog.createEvent();

  const moved = session(0, 12, 6, 'Dia 1 (manhã)');
  const added = session(2, 11, 3, 'Encerramento');
  const response = await patch(event.id, { sessions: [added, { ...moved, id: day1!.id }] });
  expect(response.status).toBe(200);
  const edited = (await response.json()) as EventView;
  expect(edited.date).toBe(moved.startsAt);
  expect(edited.sessions).toEqual([
    { ...moved, id: day1!.id },
    { ...added, id: expect.not.stringMatching(day2!.id) },
  ]);
  expect(await catalog.service.db('event_sessions').where({ id: day2!.id })).toEqual([]);
  expect((await catalog.changes(event.id)).at(-1)).toMatchObject({ date: moved.startsAt, sessions: edited.sessions });

  // Another event's session, or a session twice, is not one of this event's; an overlap is refused: nothing changes.
  const refusals: [unknown, string][] = [
    [{ sessions: [{ ...added, id: other.sessions[0]!.id }] }, sessionMessages.unknown],
    [
      {
        sessions: [
          { ...moved, id: day1!.id },
          { ...added, id: day1!.id },
        ],
      },
      sessionMessages.unknown,
    ],
    [{ sessions: [moved, session(0, 13, 2)] }, sessionMessages.overlap],
    [{ date: added.startsAt, sessions: [moved] }, sessionMessages.dateNotFirst],
  ];
  for (const [body, message] of refusals) {
    expect(await messageOf(await patch(event.id, body))).toEqual({ status: 400, message });
  }
  const after = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(after.sessions).toEqual(edited.sessions);
  expect(after.date).toBe(edited.date);
});

test("a new date moves a one-session event's session, keeping its id and length; several sessions are edited one by one", async () => {
  const single = await catalog.createEvent({ date: undefined, sessions: [session(0, 11, 6, 'Oficina')] });
  const date = session(3, 13, 1).startsAt;
  const moved = (await (await patch(single.id, { date })).json()) as EventView;
  expect(moved.date).toBe(date);
  expect(moved.sessions).toEqual([
    {
      id: single.sessions[0]!.id,
      startsAt: date,
      endsAt: new Date(Date.parse(date) + 6 * HOUR).toISOString(),
      title: 'Oficina',
    },
  ]);

  const several = await catalog.createEvent({ date: undefined, sessions: congress() });
  expect(await messageOf(await patch(several.id, { date }))).toEqual({
    status: 409,
    message: 'Este evento tem mais de uma sessão: altere a data e o horário de cada sessão',
  });
  // Its own date again changes nothing.
  expect((await patch(several.id, { date: several.date, title: 'Congresso' })).status).toBe(200);
});

test('the back office takes sessions in São Paulo time, answers them so, and refuses a past one for a new event', async () => {
  const response = await admin('POST', '', {
    title: `Congresso ${randomUUID()}`,
    location: 'São Paulo – SP',
    price: '900.00',
    sessions: [
      { startsAt: '2030-12-06T08:00', endsAt: '2030-12-06T18:00', title: 'Dia 1' },
      { startsAt: '2030-12-07T08:00', endsAt: '2030-12-07T18:00', title: 'Dia 2' },
    ],
  });
  expect(response.status).toBe(201);
  const event = (await response.json()) as AdminEventView;
  expect(event.date).toBe('2030-12-06T11:00:00.000Z');
  expect(event.localDate).toBe('2030-12-06T08:00');
  expect(event.sessions.map(({ startsAt, endsAt }) => [startsAt, endsAt])).toEqual([
    ['2030-12-06T11:00:00.000Z', '2030-12-06T21:00:00.000Z'],
    ['2030-12-07T11:00:00.000Z', '2030-12-07T21:00:00.000Z'],
  ]);
  expect(event.localSessions).toEqual([
    { id: event.sessions[0]!.id, startsAt: '2030-12-06T08:00', endsAt: '2030-12-06T18:00', title: 'Dia 1' },
    { id: event.sessions[1]!.id, startsAt: '2030-12-07T08:00', endsAt: '2030-12-07T18:00', title: 'Dia 2' },
  ]);

  const edit = await admin('PATCH', `/${event.id}`, {
    sessions: [{ id: event.sessions[1]!.id, startsAt: '2030-12-07T09:00', endsAt: '2030-12-07T17:00', title: null }],
  });
  expect(edit.status).toBe(200);
  expect(((await edit.json()) as AdminEventView).localSessions).toEqual([
    { id: event.sessions[1]!.id, startsAt: '2030-12-07T09:00', endsAt: '2030-12-07T17:00', title: null },
  ]);

  const past = await admin('POST', '', {
    title: 'Passado',
    location: 'São Paulo – SP',
    price: '10.00',
    sessions: [{ startsAt: '2020-01-10T08:00', endsAt: '2020-01-10T12:00' }],
  });
  expect(await messageOf(past)).toEqual({ status: 422, message: 'A data do evento deve estar no futuro' });
  const invalidDay = await admin('POST', '', {
    title: 'Dia inexistente',
    location: 'São Paulo – SP',
    price: '10.00',
    sessions: [{ startsAt: '2030-02-31T08:00', endsAt: '2030-03-01T12:00' }],
  });
  expect(await messageOf(invalidDay)).toEqual({
    status: 400,
    message: 'Data inválida: use o formato ISO 8601 com fuso horário',
  });
});

test('duplicating an event copies its sessions as new ones at the same times', async () => {
  const original = await catalog.createEvent({ date: undefined, sessions: congress() });
  const response = await admin('POST', `/${original.id}/duplicate`);
  expect(response.status).toBe(201);
  const copy = (await response.json()) as AdminEventView;
  expect(copy.date).toBe(original.date);
  expect(copy.sessions.map(({ id: _id, ...times }) => times)).toEqual(
    original.sessions.map(({ id: _id, ...times }) => times),
  );
  const originalIds = new Set(original.sessions.map((one) => one.id));
  expect(copy.sessions.some((one) => originalIds.has(one.id))).toBe(false);
});

test('schedules sent at once are written one after the other: the event ends with exactly one of them', async () => {
  const event = await catalog.createEvent({ date: undefined, sessions: congress() });
  const [day1] = event.sessions;
  const edits = Array.from({ length: 12 }, (_, i) => [
    { ...session(0, 11, 1 + (i % 6)), id: day1!.id, title: `Dia 1 — versão ${i}` },
    session(1 + (i % 3), 11, 2, `Novo dia ${i}`),
  ]);

  const answers = await Promise.all(edits.map((sessions) => patch(event.id, { sessions })));

  expect(answers.map((answer) => answer.status)).toEqual(edits.map(() => 200));
  const stored = await catalog.service.db('event_sessions').where({ event_id: event.id }).orderBy('starts_at');
  expect(stored).toHaveLength(2);
  expect(stored[0]).toMatchObject({ id: day1!.id });
  const version = /versão (\d+)$/.exec(stored[0].title)![1];
  expect(stored[1].title).toBe(`Novo dia ${version}`);
  const after = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(after.sessions.map((one) => one.title)).toEqual([`Dia 1 — versão ${version}`, `Novo dia ${version}`]);
  expect((await catalog.changes(event.id)).at(-1)).toMatchObject({ sessions: after.sessions });
});
