import { randomUUID } from 'node:crypto';
import { defineService, type Knex } from '@ticketing/platform';
import { startTestService, uniqueName, waitFor, type TestService } from '@ticketing/testkit';
import type { DoorEventView } from '@ticketing/proto';
import { DAY, inDays, startCatalog, type Catalog } from './support.ts';

const HOUR = 60 * 60 * 1000;

/** Stands in for identity: it announces which events each door staffer may work, as identity does. */
const identityStandIn = defineService({
  name: 'identity-stand-in',
  identity: 'identity',
  migrations: [],
  setup: () => ({}),
});

let catalog: Catalog;
let identity: TestService<unknown>;

beforeAll(async () => {
  const busSchema = uniqueName('bus');
  catalog = await startCatalog({ busSchema });
  identity = await startTestService(identityStandIn, { busSchema });
});
afterAll(async () => {
  await identity?.stop();
  await catalog?.service.stop();
});

/** A door staffer's token, once identity announced the events assigned to them and the catalog stored them. */
async function staffer(eventIds: string[], id: string = randomUUID()): Promise<string> {
  const envelope = await identity.db.transaction((trx: Knex.Transaction) =>
    identity.outbox.add(trx, 'user.door-events-changed', id, { userId: id, eventIds }),
  );
  await waitFor(async () => (await catalog.service.db('inbox').where({ event_id: envelope.id })).length === 1);
  return catalog.sign({ id, roles: ['doorStaff'] });
}

/** Today's start and end in São Paulo and now, as the database sees them. */
async function saoPauloDay(): Promise<{ start: number; now: number; end: number }> {
  const { rows } = await catalog.service.db.raw(`
    select date_trunc('day', now() at time zone 'America/Sao_Paulo') at time zone 'America/Sao_Paulo' as start,
           now() as now,
           (date_trunc('day', now() at time zone 'America/Sao_Paulo') + interval '1 day') at time zone 'America/Sao_Paulo' as end`);
  const [day] = rows as { start: Date; now: Date; end: Date }[];
  return { start: day!.start.getTime(), now: day!.now.getTime(), end: day!.end.getTime() };
}

const isoAt = (time: number) => new Date(time).toISOString();

async function doorEvents(token: string): Promise<DoorEventView[]> {
  const response = await catalog.request('GET', '/api/door/events', { token });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as DoorEventView[];
}

test("door staff see today's events, started or not and listed or not, first, then upcoming ones", async () => {
  const { start, now, end } = await saoPauloDay();
  const tag = randomUUID().slice(0, 8);
  const upcoming = await catalog.createEvent({ title: `Próximo ${tag}`, date: inDays(2) });
  const laterToday = await catalog.createEvent({ title: `Hoje à noite ${tag}`, date: isoAt((now + end) / 2) });
  const started = await catalog.createEvent({ title: `Começou ${tag}`, date: isoAt((start + now) / 2) });
  const unlisted = await catalog.createEvent({ title: `Turma fechada ${tag}`, date: inDays(1), listed: false });
  const yesterday = await catalog.createEvent({ title: `Ontem ${tag}`, date: isoAt(start - 60 * 60 * 1000) });
  const inactive = await catalog.createEvent({ title: `Cancelado ${tag}`, date: isoAt((start + now) / 2) });
  expect((await catalog.request('DELETE', `/api/events/${inactive.id}`, { token: catalog.adminToken })).status).toBe(
    200,
  );

  const ours = new Set([upcoming.id, laterToday.id, started.id, unlisted.id, yesterday.id, inactive.id]);
  const staffToken = await staffer([...ours]);
  const listing = (await doorEvents(staffToken)).filter((event) => ours.has(event.id));

  expect(listing.map((event) => event.id)).toEqual([started.id, laterToday.id, unlisted.id, upcoming.id]);
  expect(listing[0]).toEqual({
    id: started.id,
    title: started.title,
    date: started.date,
    location: started.location,
    listed: true,
    today: true,
    sessions: started.sessions,
  });
  expect(listing.map((event) => event.today)).toEqual([true, true, false, false]);
  expect(listing[2]!.listed).toBe(false);
  // Today's events come before every upcoming one, whoever else's events share the database.
  const everything = await doorEvents(catalog.adminToken);
  const firstUpcoming = everything.findIndex((event) => !event.today);
  expect(everything.slice(firstUpcoming).every((event) => !event.today)).toBe(true);
});

test('a congress of several days is listed on each of its days, and between them as still to come', async () => {
  const { start } = await saoPauloDay();
  const tag = randomUUID();
  const day = (offset: number, title: string) => ({
    startsAt: isoAt(start + offset * DAY + 8 * HOUR),
    endsAt: isoAt(start + offset * DAY + 18 * HOUR),
    title,
  });
  const secondDay = await catalog.createEvent({
    title: `No segundo dia ${tag}`,
    date: undefined,
    sessions: [day(-1, 'Dia 1'), day(0, 'Dia 2')],
  });
  const betweenDays = await catalog.createEvent({
    title: `Entre os dias ${tag}`,
    date: undefined,
    sessions: [day(-1, 'Dia 1'), day(1, 'Dia 2')],
  });
  const over = await catalog.createEvent({
    title: `Terminou ${tag}`,
    date: undefined,
    sessions: [day(-2, 'Dia 1'), day(-1, 'Dia 2')],
  });
  const ours = new Set([secondDay.id, betweenDays.id, over.id]);

  const listing = (await doorEvents(catalog.adminToken)).filter((event) => ours.has(event.id));

  expect(listing.map(({ id, today, sessions }) => ({ id, today, sessions }))).toEqual([
    { id: secondDay.id, today: true, sessions: secondDay.sessions },
    { id: betweenDays.id, today: false, sessions: betweenDays.sessions },
  ]);
});

test('only door staff and administrators see the door events', async () => {
  const anonymous = await catalog.request('GET', '/api/door/events');
  expect(anonymous.status).toBe(401);
  const buyer = await catalog.request('GET', '/api/door/events', { token: catalog.userToken });
  expect(buyer.status).toBe(403);
  expect(await buyer.json()).toEqual({ message: 'Acesso restrito à equipe de portaria' });
  const courtesyManager = await catalog.sign({ roles: ['courtesyManager'] });
  expect((await catalog.request('GET', '/api/door/events', { token: courtesyManager })).status).toBe(403);
  expect((await catalog.request('GET', '/api/door/events', { token: catalog.adminToken })).status).toBe(200);
});

test('door staff see only the events assigned to them, far ahead or not; administrators see every one', async () => {
  const tag = randomUUID().slice(0, 8);
  const assigned = await catalog.createEvent({ title: `Escalado ${tag}`, date: inDays(40) });
  const other = await catalog.createEvent({ title: `Outro ${tag}`, date: inDays(1) });
  const ours = new Set([assigned.id, other.id]);
  const id = randomUUID();
  const listed = async (token: string) =>
    (await doorEvents(token)).filter((event) => ours.has(event.id)).map((event) => event.id);

  expect(await listed(await staffer([assigned.id], id))).toEqual([assigned.id]);
  expect(await listed(catalog.adminToken)).toEqual([other.id, assigned.id]);
  // A new announcement replaces the set; an empty one leaves nothing.
  expect(await listed(await staffer([other.id], id))).toEqual([other.id]);
  expect(await listed(await staffer([], id))).toEqual([]);
  expect(await catalog.service.db('door_assignments').where({ user_id: id })).toEqual([]);
  // Door staff nobody assigned see no event at all.
  expect(await doorEvents(await catalog.sign({ roles: ['doorStaff'] }))).toEqual([]);
});
