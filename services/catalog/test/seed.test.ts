import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { EventView } from '@ticketing/proto';
import { seedCatalog } from '../../../scripts/seed.ts';
import { seedEvents } from '../../../scripts/seed/events.ts';
import { DAY, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const publicDir = fileURLToPath(new URL('../../../gateway/public', import.meta.url));
const UNLISTED = 'Workshop de Farmácia Clínica — Montes Claros';
const countEvents = async () => Number((await catalog.service.db('events').count({ n: '*' }))[0]!.n);

test('an empty catalog is seeded once, even when two starts race', async () => {
  const { db, outbox } = catalog.service;
  const results = await Promise.all([seedCatalog(db, outbox), seedCatalog(db, outbox)]);
  expect(results.sort()).toEqual([0, seedEvents.length]);
  expect(await countEvents()).toBe(seedEvents.length);

  // Every event was announced as it stands.
  const ids: string[] = (await db('events').select('id')).map((row: { id: string }) => row.id);
  for (const id of ids) {
    const changes = await catalog.changes(id);
    const row = await db('events').where({ id }).first();
    expect(changes.at(-1)).toMatchObject({ eventId: id, title: row.title, maxAttendees: row.max_attendees });
  }

  expect(await seedCatalog(db, outbox)).toBe(0);
  expect(await countEvents()).toBe(seedEvents.length);
});

test('the seeded listing: upcoming and listed only, soonest first, with a sold-out and an unlimited event', async () => {
  const response = await catalog.request('GET', '/api/events');
  const listed = (await response.json()) as EventView[];
  const titles = listed.map((event) => event.title);
  expect(titles).not.toContain(UNLISTED);
  expect(titles).toHaveLength(seedEvents.filter((seed) => seed.daysFromNow > 0 && seed.listed !== false).length);
  const times = listed.map((event) => Date.parse(event.date));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(times[0]! - Date.now()).toBeLessThan(12 * DAY);
  expect(
    times.filter((time) => time - Date.now() > 28 * DAY && time - Date.now() < 250 * DAY).length,
  ).toBeGreaterThanOrEqual(5);

  expect(listed.filter((event) => event.remaining === 0)).toEqual([
    expect.objectContaining({
      title: 'Workshop de Validação de Métodos Analíticos',
      maxAttendees: 40,
      currentAttendees: 40,
    }),
  ]);
  expect(listed.filter((event) => event.maxAttendees === null)).toHaveLength(1);
  for (const event of listed) expect(event.price).toMatch(/^\d+\.\d{2}$/);
  expect(listed.map((event) => event.price)).toEqual(expect.arrayContaining(['150.00', '390.00', '790.00']));

  const search = (await (await catalog.request('GET', '/api/events?q=farmacia%20clinica')).json()) as EventView[];
  expect(search.map((event) => event.title)).not.toContain(UNLISTED);
});

test('the two-day congress has its two days, 08:00–18:00 each; every other event one session from its date', async () => {
  const listed = (await (await catalog.request('GET', '/api/events')).json()) as EventView[];
  const congress = listed.find((event) => event.title.startsWith('Congresso Brasileiro de Assuntos Regulatórios'))!;
  expect(congress.maxAttendees).toBe(800);
  const local = (iso: string) => new Date(Date.parse(iso) - 3 * 60 * 60 * 1000).toISOString().slice(0, 16);
  const days = congress.sessions.map((session) => ({
    title: session.title,
    startsAt: local(session.startsAt),
    endsAt: local(session.endsAt),
  }));
  expect(days.map((day) => [day.title, day.startsAt.slice(11), day.endsAt.slice(11)])).toEqual([
    ['Dia 1', '08:00', '18:00'],
    ['Dia 2', '08:00', '18:00'],
  ]);
  expect(Date.parse(`${days[1]!.startsAt.slice(0, 10)}Z`) - Date.parse(`${days[0]!.startsAt.slice(0, 10)}Z`)).toBe(DAY);
  expect(congress.date).toBe(congress.sessions[0]!.startsAt);
  // It sells to professionals, at a first lot until two months before, and to students, from R$ 590,00.
  expect(congress.price).toBe('590.00');
  expect(congress.ticketTypes).toEqual([
    expect.objectContaining({
      name: 'Profissional',
      price: '990.00',
      requiresDocument: false,
      currentLot: expect.objectContaining({ name: '1º lote', price: '990.00', remaining: null }),
    }),
    expect.objectContaining({ name: 'Estudante', price: '590.00', remaining: 150, requiresDocument: true }),
  ]);
  for (const event of listed.filter((other) => other.id !== congress.id)) {
    expect(event.sessions).toEqual([expect.objectContaining({ startsAt: event.date, title: null })]);
  }
});

test('the unlisted workshop and the past event are still reachable by direct link', async () => {
  const { db } = catalog.service;
  const unlisted = await db('events').where({ title: UNLISTED }).first();
  const past = await db('events').where('date', '<', new Date()).first();
  expect(past).toBeDefined();
  for (const row of [unlisted, past]) {
    const response = await catalog.request('GET', `/api/events/${row.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: row.id, title: row.title, isActive: true });
  }
  expect(unlisted).toMatchObject({ listed: false, location: expect.stringContaining('Montes Claros') });
});

test('every seeded event has its own 16:9 illustration shipped with the gateway', async () => {
  const rows: { image_url: string }[] = await catalog.service.db('events').select('image_url');
  const urls = rows.map((row) => row.image_url);
  expect(new Set(urls).size).toBe(seedEvents.length);
  for (const url of urls) {
    expect(url).toMatch(/^\/images\/events\/[a-z0-9-]+\.svg$/);
    const path = `${publicDir}${url}`;
    const svg = await readFile(path, 'utf8');
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="675" viewBox="0 0 1200 675"/,
    );
    expect(svg).not.toMatch(/<text|<script|<image|href="http/);
    expect((await stat(path)).size).toBeLessThan(12_000);
  }
});
