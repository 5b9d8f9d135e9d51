import { randomUUID } from 'node:crypto';
import type { DoorEventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

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
  const staffToken = await catalog.sign({ roles: ['doorStaff'] });
  const listing = (await doorEvents(staffToken)).filter((event) => ours.has(event.id));

  expect(listing.map((event) => event.id)).toEqual([started.id, laterToday.id, unlisted.id, upcoming.id]);
  expect(listing[0]).toEqual({
    id: started.id,
    title: started.title,
    date: started.date,
    location: started.location,
    listed: true,
    today: true,
  });
  expect(listing.map((event) => event.today)).toEqual([true, true, false, false]);
  expect(listing[2]!.listed).toBe(false);
  // Today's events come before every upcoming one, whoever else's events share the database.
  const everything = await doorEvents(catalog.adminToken);
  const firstUpcoming = everything.findIndex((event) => !event.today);
  expect(everything.slice(firstUpcoming).every((event) => !event.today)).toBe(true);
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
