import { randomUUID } from 'node:crypto';
import type { EventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

/** A word no other test uses, to find this test's events among all of them. */
const marker = () => `m${randomUUID().replaceAll('-', '').slice(0, 12)}`;

async function list(query = ''): Promise<EventView[]> {
  const response = await catalog.request('GET', `/api/events${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as EventView[];
}

async function search(...words: string[]): Promise<string[]> {
  const events = await list(`?q=${encodeURIComponent(words.join(' '))}`);
  return events.map((event) => event.title);
}

async function hold(eventId: string, quantity: number) {
  const response = await catalog.request('PUT', `/internal/events/${eventId}/holds/${randomUUID()}`, {
    body: { quantity },
  });
  expect(response.status).toBe(200);
}

test('the listing shows active, listed, upcoming events only, soonest first', async () => {
  const tag = marker();
  const later = await catalog.createEvent({ title: `Depois ${tag}`, date: inDays(60) });
  const sooner = await catalog.createEvent({ title: `Antes ${tag}`, date: inDays(3) });
  const sameDay = await catalog.createEvent({ title: `Antes também ${tag}`, date: sooner.date });
  const past = await catalog.createEvent({ title: `Passado ${tag}`, date: inDays(-2) });
  const unlisted = await catalog.createEvent({ title: `Fora da lista ${tag}`, date: inDays(5), listed: false });
  const inactive = await catalog.createEvent({ title: `Cancelado ${tag}`, date: inDays(7) });
  expect((await catalog.request('DELETE', `/api/events/${inactive.id}`, { token: catalog.adminToken })).status).toBe(
    200,
  );
  const outboxBefore = await catalog.service.db('outbox').count({ n: '*' });

  const ours = new Set([later.id, sooner.id, sameDay.id, past.id, unlisted.id, inactive.id]);
  const everything = (await list()).filter((event) => ours.has(event.id));
  expect(everything.map((event) => event.id)).toEqual([sooner.id, sameDay.id, later.id]);
  expect(everything[0]).toEqual(sooner);
  expect(await search(tag)).toEqual([`Antes ${tag}`, `Antes também ${tag}`, `Depois ${tag}`]);

  // Moving an event into the past takes it off the listing; reading the listing changes nothing.
  const moved = await catalog.request('PATCH', `/api/events/${later.id}`, {
    token: catalog.adminToken,
    body: { date: inDays(-1) },
  });
  expect(moved.status).toBe(200);
  expect(await search(tag)).toEqual([`Antes ${tag}`, `Antes também ${tag}`]);
  const outboxAfter = await catalog.service.db('outbox').count({ n: '*' });
  expect(Number(outboxAfter[0]!.n)).toBe(Number(outboxBefore[0]!.n) + 1);
});

test('search ignores case and accents and looks at title, description and location', async () => {
  const tag = marker();
  await catalog.createEvent({
    title: `Workshop de Farmácia Clínica ${tag}`,
    description: 'Atenção farmacêutica e revisão da farmacoterapia.',
    location: 'Belo Horizonte – MG',
  });
  await catalog.createEvent({
    title: `SIMPÓSIO DE FARMACOVIGILÂNCIA ${tag}`,
    description: 'Notificação de eventos adversos.',
    location: 'Campinas – SP',
  });
  const clinic = `Workshop de Farmácia Clínica ${tag}`;
  const vigilance = `SIMPÓSIO DE FARMACOVIGILÂNCIA ${tag}`;

  expect(await search(tag, 'farmacia')).toEqual([clinic]);
  expect(await search(tag, 'FARMÁCIA')).toEqual([clinic]);
  expect(await search(tag, 'clínica')).toEqual([clinic]);
  expect(await search(tag.toUpperCase(), 'farmacovigilancia')).toEqual([vigilance]);
  expect(await search(tag, 'simposio')).toEqual([vigilance]);
  expect(await search(tag, 'atencao', 'FARMACOTERAPIA')).toEqual([clinic]);
  expect(await search(tag, 'notificação')).toEqual([vigilance]);
  expect(await search(tag, 'belo', 'horizonte')).toEqual([clinic]);
  expect(await search(tag, 'campinas')).toEqual([vigilance]);
  expect(await search(tag, 'farma')).toEqual([clinic, vigilance]);
  expect(await search(tag, 'farmácia', 'campinas')).toEqual([]);
  expect(await search(tag, 'oncologia')).toEqual([]);
});

test('search takes %, _ and \\ literally', async () => {
  const tag = marker();
  await catalog.createEvent({ title: `Desconto de 100% ${tag}` });
  await catalog.createEvent({ title: `Turma 1000 ${tag}` });
  await catalog.createEvent({ title: `Módulo a_b ${tag}` });
  await catalog.createEvent({ title: `Módulo axb ${tag}` });
  await catalog.createEvent({ title: `Caminho c\\d ${tag}` });
  await catalog.createEvent({ title: `Caminho cd ${tag}` });

  expect(await search(tag, '100%')).toEqual([`Desconto de 100% ${tag}`]);
  expect(await search(tag, '%')).toEqual([`Desconto de 100% ${tag}`]);
  expect(await search(tag, 'a_b')).toEqual([`Módulo a_b ${tag}`]);
  expect(await search(tag, 'c\\d')).toEqual([`Caminho c\\d ${tag}`]);
  expect(await search(tag, '\\')).toEqual([`Caminho c\\d ${tag}`]);
});

test('a blank search lists everything upcoming', async () => {
  const event = await catalog.createEvent({ date: inDays(2) });
  for (const query of ['?q=', '?q=%20%20', '?other=1']) {
    expect((await list(query)).map((item) => item.id)).toContain(event.id);
  }
});

test('remaining spots: what is left, zero when sold out, null without a limit', async () => {
  const tag = marker();
  const open = await catalog.createEvent({ title: `Com vagas ${tag}`, maxAttendees: 3, date: inDays(10) });
  const full = await catalog.createEvent({ title: `Lotado ${tag}`, maxAttendees: 2, date: inDays(11) });
  const unlimited = await catalog.createEvent({ title: `Sem limite ${tag}`, date: inDays(12) });
  expect(open).toMatchObject({ maxAttendees: 3, currentAttendees: 0, remaining: 3 });
  expect(unlimited).toMatchObject({ maxAttendees: null, currentAttendees: 0, remaining: null });

  await hold(open.id, 1);
  await hold(full.id, 2);
  await hold(unlimited.id, 5);

  const listed = await list(`?q=${tag}`);
  expect(
    listed.map(({ id, maxAttendees, currentAttendees, remaining }) => ({
      id,
      maxAttendees,
      currentAttendees,
      remaining,
    })),
  ).toEqual([
    { id: open.id, maxAttendees: 3, currentAttendees: 1, remaining: 2 },
    { id: full.id, maxAttendees: 2, currentAttendees: 2, remaining: 0 },
    { id: unlimited.id, maxAttendees: null, currentAttendees: 5, remaining: null },
  ]);
  const detail = await catalog.request('GET', `/api/events/${full.id}`);
  expect(await detail.json()).toMatchObject({ remaining: 0, currentAttendees: 2 });
});

test('the detail shows any active event by id, listed or not, past or not; only one still to come is on sale', async () => {
  const unlisted = await catalog.createEvent({ listed: false, imageUrl: '/images/events/exemplo.svg', price: 390 });
  const past = await catalog.createEvent({ date: inDays(-30) });
  for (const event of [unlisted, past]) {
    const response = await catalog.request('GET', `/api/events/${event.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(event);
  }
  expect(unlisted).toMatchObject({
    listed: false,
    isActive: true,
    price: '390.00',
    imageUrl: '/images/events/exemplo.svg',
    onSale: true,
  });
  expect(past.onSale).toBe(false);
});

test('the detail of an unknown, inactive or malformed id is 404 "Evento não encontrado"', async () => {
  const inactive = await catalog.createEvent();
  await catalog.request('DELETE', `/api/events/${inactive.id}`, { token: catalog.adminToken });
  for (const id of [inactive.id, randomUUID(), 'abc', '1', `${randomUUID()}x`, "1' or '1'='1", 'x'.repeat(5000)]) {
    const response = await catalog.request('GET', `/api/events/${encodeURIComponent(id)}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Evento não encontrado' });
  }
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('a bad search is a 400 with the contract message', async () => {
  const cases: [string, string][] = [
    ['?q=a&q=b', 'Busca inválida'],
    [`?q=${'a'.repeat(101)}`, 'Busca deve ter no máximo 100 caracteres'],
    ['?q=farm%00acia', 'Texto com caracteres inválidos'],
  ];
  for (const [query, message] of cases) {
    const response = await catalog.request('GET', `/api/events${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
  }
  expect((await catalog.request('GET', `/api/events?q=${'a'.repeat(100)}`)).status).toBe(200);
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});
