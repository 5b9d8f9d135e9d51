import { randomUUID } from 'node:crypto';
import type { EventView } from '@ticketing/proto';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

interface HoldAnswer {
  holdId: string;
  quantity: number;
  released: boolean;
  kept: number;
  lines: unknown[];
  event: EventView;
}

const hold = (eventId: string, holdId: string, body: unknown) =>
  catalog.request('PUT', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`, { body });
const release = (eventId: string, holdId: string) =>
  catalog.request('DELETE', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`);

const eventRow = (id: string) => catalog.service.db('events').where({ id }).first();
const holdRows = (eventId: string) => catalog.service.db('holds').where({ event_id: eventId }).orderBy('id');
/** What was announced of the event after its creation: a count that moves is not announced. */
const announcedSinceMade = async (eventId: string) => (await catalog.changes(eventId)).slice(1);

test('a hold takes spots and is recorded; repeating it counts nothing twice', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  const holdId = `order:${randomUUID()}`;

  const first = await hold(event.id, holdId, { quantity: 2 });
  expect(first.status).toBe(200);
  const answer = (await first.json()) as HoldAnswer;
  expect(answer).toEqual({
    holdId,
    quantity: 2,
    released: false,
    kept: 0,
    // A hold of the event's spots alone takes no ticket of a type; its only type has what the event has left.
    lines: [],
    event: { ...event, currentAttendees: 2, remaining: 8, ticketTypes: [{ ...event.ticketTypes[0], remaining: 8 }] },
  });
  expect(await holdRows(event.id)).toEqual([
    expect.objectContaining({ id: holdId, event_id: event.id, quantity: 2, released_at: null }),
  ]);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 2 });
  expect(await announcedSinceMade(event.id)).toEqual([]);
  expect(catalog.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'spots held', eventId: event.id, holdId, quantity: 2 }),
  );

  for (let i = 0; i < 3; i++) {
    const again = await hold(event.id, holdId, { quantity: 2 });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(answer);
  }
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 2 });
  expect(await holdRows(event.id)).toHaveLength(1);
  expect(await announcedSinceMade(event.id)).toEqual([]);
});

test('a hold id already used with another quantity or event is a conflict', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  const other = await catalog.createEvent({ maxAttendees: 10 });
  const holdId = randomUUID();
  expect((await hold(event.id, holdId, { quantity: 1 })).status).toBe(200);

  const otherQuantity = await hold(event.id, holdId, { quantity: 3 });
  expect(otherQuantity.status).toBe(409);
  expect(await otherQuantity.json()).toEqual({ message: 'Esta reserva já foi registrada com outra quantidade' });
  const otherEvent = await hold(other.id, holdId, { quantity: 1 });
  expect(otherEvent.status).toBe(409);
  expect(await otherEvent.json()).toEqual({ message: 'Esta reserva já foi registrada para outro evento' });

  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect(await eventRow(other.id)).toMatchObject({ current_attendees: 0 });
  expect(await announcedSinceMade(other.id)).toEqual([]);
});

test('a release gives the spots back once; a second release changes nothing', async () => {
  const event = await catalog.createEvent({ maxAttendees: 4 });
  const holdId = 'pedido_123';
  await hold(event.id, holdId, { quantity: 3 });

  const first = await release(event.id, holdId);
  expect(first.status).toBe(200);
  const answer = (await first.json()) as HoldAnswer;
  expect(answer).toEqual({
    holdId,
    quantity: 3,
    released: true,
    kept: 0,
    lines: [],
    event: { ...event, currentAttendees: 0, remaining: 4 },
  });
  const [row] = await holdRows(event.id);
  expect(row.released_at).toBeInstanceOf(Date);

  const second = await release(event.id, holdId);
  expect(second.status).toBe(200);
  expect(await second.json()).toEqual(answer);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  expect(await announcedSinceMade(event.id)).toEqual([]);
  expect(catalog.logs.lines.filter((line) => line.msg === 'hold released' && line.holdId === holdId)).toHaveLength(1);

  // A released hold stays released: its id cannot take spots again.
  const reuse = await hold(event.id, holdId, { quantity: 3 });
  expect(reuse.status).toBe(409);
  expect(await reuse.json()).toEqual({ message: 'Esta reserva já foi liberada' });
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
});

test('a release may keep some spots taken: only the others come back, once', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  const holdId = `courtesy-link:${randomUUID()}`;
  await hold(event.id, holdId, { quantity: 5 });
  const keepTwo = `/internal/events/${event.id}/holds/${encodeURIComponent(holdId)}?keep=2`;

  const refused = await catalog.request('DELETE', keepTwo.replace('keep=2', 'keep=6'));
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({ message: 'Não é possível manter mais vagas do que a reserva tem' });
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 5 });

  for (let i = 0; i < 2; i++) {
    const released = await catalog.request('DELETE', keepTwo);
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({
      quantity: 5,
      released: true,
      kept: 2,
      event: { currentAttendees: 2 },
    });
  }
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 2 });
  expect(await announcedSinceMade(event.id)).toEqual([]);

  const bad = await catalog.request('DELETE', keepTwo.replace('keep=2', 'keep=-1'));
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ message: 'Quantidade a manter não pode ser negativa' });
});

test('releasing an unknown hold, or one of another event, is 404 "Reserva não encontrada"', async () => {
  const event = await catalog.createEvent({ maxAttendees: 4 });
  const other = await catalog.createEvent({ maxAttendees: 4 });
  await hold(event.id, 'pedido-a', { quantity: 1 });
  for (const [eventId, holdId] of [
    [event.id, 'pedido-inexistente'],
    [other.id, 'pedido-a'],
  ] as const) {
    const response = await release(eventId, holdId);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Reserva não encontrada' });
  }
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});

test('a hold beyond the spots left is refused as sold out, all or nothing', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5 });
  expect((await hold(event.id, 'a', { quantity: 3 })).status).toBe(200);

  const tooMany = await hold(event.id, 'b', { quantity: 3 });
  expect(tooMany.status).toBe(409);
  expect(await tooMany.json()).toEqual({ message: 'Evento esgotado' });
  expect((await hold(event.id, 'c', { quantity: 2 })).status).toBe(200);
  const soldOut = await hold(event.id, 'd', { quantity: 1 });
  expect(soldOut.status).toBe(409);
  expect(await soldOut.json()).toEqual({ message: 'Evento esgotado' });

  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 5 });
  expect((await holdRows(event.id)).map((row) => row.id)).toEqual(['a', 'c']);
  expect(await announcedSinceMade(event.id)).toEqual([]);
  expect(catalog.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'hold refused', eventId: event.id, holdId: 'd', reason: 'sold_out' }),
  );
  // The hold that already has its spots is still answered, sold out or not.
  expect((await hold(event.id, 'a', { quantity: 3 })).status).toBe(200);
});

test('an event without a limit takes any number of holds', async () => {
  const event = await catalog.createEvent();
  for (const id of ['x1', 'x2', 'x3']) expect((await hold(event.id, id, { quantity: 100 })).status).toBe(200);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 300, max_attendees: null });
});

test('past, inactive, unknown and malformed events cannot be held', async () => {
  const past = await catalog.createEvent({ date: inDays(-1), maxAttendees: 10 });
  const inactive = await catalog.createEvent({ maxAttendees: 10 });
  await catalog.request('DELETE', `/api/events/${inactive.id}`, { token: catalog.adminToken });
  for (const event of [past, inactive]) {
    const response = await hold(event.id, `h-${event.id}`, { quantity: 1 });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: 'Evento indisponível para compra' });
    expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
    expect(await holdRows(event.id)).toEqual([]);
  }
  expect(catalog.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'hold refused', eventId: past.id, reason: 'unavailable' }),
  );
  for (const eventId of [randomUUID(), 'nao-e-um-uuid']) {
    const response = await hold(eventId, 'h-unknown', { quantity: 1 });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Evento não encontrado' });
  }
  expect(await catalog.service.db('holds').where({ id: 'h-unknown' })).toEqual([]);
});

test('bad hold ids and bodies are a 400 with a pt-BR message', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  for (const holdId of ['com espaço', 'ação', 'x'.repeat(101), "a'b", 'a/b']) {
    for (const response of [await hold(event.id, holdId, { quantity: 1 }), await release(event.id, holdId)]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: 'Identificador de reserva inválido: use até 100 letras, números, "_", "-" ou ":"',
      });
    }
  }
  const bodies: [unknown, string][] = [
    [{}, 'Quantidade deve ser um número inteiro'],
    [{ quantity: '1' }, 'Quantidade deve ser um número inteiro'],
    [{ quantity: 1.5 }, 'Quantidade deve ser um número inteiro'],
    [{ quantity: 0 }, 'Quantidade deve ser pelo menos 1'],
    [{ quantity: -3 }, 'Quantidade deve ser pelo menos 1'],
    [{ quantity: 101 }, 'Quantidade deve ser no máximo 100'],
    [{ quantity: 1, price: '0.00' }, 'Campo desconhecido: price'],
    [[1], 'Dados da reserva inválidos'],
  ];
  for (const [body, message] of bodies) {
    const response = await hold(event.id, 'valido', body);
    expect({ body, status: response.status, answer: await response.json() }).toEqual({
      body,
      status: 400,
      answer: { message },
    });
  }
  const malformed = await catalog.request('PUT', `/internal/events/${event.id}/holds/valido`, { raw: '{quantity:1}' });
  expect(malformed.status).toBe(400);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  expect(catalog.logs.lines.filter((line) => line.msg === 'unhandled error')).toEqual([]);
});

test('300 buyers at once for 100 spots: exactly 100 win and the count never passes the limit', async () => {
  const event = await catalog.createEvent({ maxAttendees: 100 });
  const responses = await Promise.all(
    Array.from({ length: 300 }, (_, i) => hold(event.id, `corrida-${i}`, { quantity: 1 })),
  );
  const answers = await Promise.all(responses.map(async (response) => [response.status, await response.json()]));
  const winners = answers.filter(([status]) => status === 200);
  const losers = answers.filter(([status]) => status === 409);
  expect(winners).toHaveLength(100);
  expect(losers).toHaveLength(200);
  for (const [, body] of losers) expect(body).toEqual({ message: 'Evento esgotado' });

  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 100, max_attendees: 100 });
  expect(await holdRows(event.id)).toHaveLength(100);
  // Nothing announced through the rush; each winner is answered the count it left.
  expect(await announcedSinceMade(event.id)).toEqual([]);
  const counts = winners.map(([, body]) => (body as HoldAnswer).event.currentAttendees).sort((a, b) => a - b);
  expect(counts).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  expect(catalog.logs.lines.filter((line) => line.msg === 'hold refused' && line.eventId === event.id)).toHaveLength(
    200,
  );
});

test('the same hold sent many times at once is counted once', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  const responses = await Promise.all(Array.from({ length: 25 }, () => hold(event.id, 'repetido', { quantity: 4 })));
  const answers = await Promise.all(responses.map((response) => response.json()));
  expect(responses.map((response) => response.status)).toEqual(Array(25).fill(200));
  for (const answer of answers) expect(answer).toMatchObject({ holdId: 'repetido', quantity: 4, released: false });
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 4 });
  expect(await holdRows(event.id)).toHaveLength(1);

  const releases = await Promise.all(Array.from({ length: 25 }, () => release(event.id, 'repetido')));
  expect(releases.map((response) => response.status)).toEqual(Array(25).fill(200));
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  expect(await announcedSinceMade(event.id)).toEqual([]);
});

test('releases and new holds racing keep the count equal to the holds outstanding', async () => {
  const event = await catalog.createEvent({ maxAttendees: 30 });
  for (let i = 0; i < 30; i++) expect((await hold(event.id, `antigo-${i}`, { quantity: 1 })).status).toBe(200);

  const responses = await Promise.all([
    ...Array.from({ length: 30 }, (_, i) => release(event.id, `antigo-${i}`)),
    ...Array.from({ length: 60 }, (_, i) => hold(event.id, `novo-${i}`, { quantity: 1 })),
  ]);
  expect(responses.slice(0, 30).every((response) => response.status === 200)).toBe(true);
  const newHolds = responses.slice(30);
  expect(newHolds.every((response) => response.status === 200 || response.status === 409)).toBe(true);
  const won = newHolds.filter((response) => response.status === 200).length;

  const outstanding = await catalog.service.db('holds').where({ event_id: event.id }).whereNull('released_at');
  const row = await eventRow(event.id);
  expect(outstanding).toHaveLength(won);
  expect(row.current_attendees).toBe(won);
  expect(won).toBeGreaterThan(0);
  expect(won).toBeLessThanOrEqual(30);
});

test('only orders and courtesy may hold spots: no service token is 401, another service 403, and nothing is held', async () => {
  const event = await catalog.createEvent({ maxAttendees: 3 });
  const path = `/internal/events/${event.id}/holds/${encodeURIComponent(`order:${randomUUID()}`)}`;
  const body = { quantity: 1 };

  const anonymous = await catalog.request('PUT', path, { body, caller: null });
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toEqual({ message: 'Chamada interna não autorizada' });
  const asMail = await catalog.request('PUT', path, { body, caller: 'mail' });
  expect(asMail.status).toBe(403);
  expect(await asMail.json()).toEqual({ message: 'Chamada interna não autorizada' });
  // A user's session token is no service token, not even an administrator's.
  const asAdmin = await catalog.request('PUT', path, { body, caller: null, token: catalog.adminToken });
  expect(asAdmin.status).toBe(401);
  expect(await holdRows(event.id)).toEqual([]);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });

  expect((await catalog.request('PUT', path, { body, caller: 'courtesy' })).status).toBe(200);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});
