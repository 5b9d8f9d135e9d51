import { randomUUID } from 'node:crypto';
import type { EventView, HoldView } from '@ticketing/proto';
import { giveBackLapsedHolds } from '../src/domain/inventory.ts';
import { inDays, startCatalog, type Catalog } from './support.ts';

let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const hold = (eventId: string, holdId: string, typeIds: string[], extra: Record<string, unknown> = {}) =>
  catalog.request('PUT', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`, {
    body: { quantity: typeIds.length, items: typeIds.map((ticketTypeId) => ({ ticketTypeId })), ...extra },
  });
const release = (eventId: string, holdId: string) =>
  catalog.request('DELETE', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`);
const linesOf = async (response: Response) => ((await response.json()) as HoldView).lines;

const typeRows = (eventId: string) =>
  catalog.service.db('ticket_types').where({ event_id: eventId }).orderBy('position');
const lotRows = (typeId: string) =>
  catalog.service.db('ticket_lots').where({ ticket_type_id: typeId }).orderBy('position');
const attendees = async (eventId: string) =>
  (await catalog.service.db('events').where({ id: eventId }).first()).current_attendees as number;

/** An event selling one type, 'Congressista', in two lots: 2 at R$ 100, then 3 at R$ 150. */
async function eventWithLots(fields: Record<string, unknown> = {}): Promise<{ event: EventView; typeId: string }> {
  const event = await catalog.createEvent({
    ticketTypes: [
      {
        name: 'Congressista',
        price: '150.00',
        lots: [
          { price: '100.00', quantity: 2 },
          { price: '150.00', quantity: 3 },
        ],
      },
    ],
    ...fields,
  });
  return { event, typeId: event.ticketTypes[0]!.id };
}

const line = (typeId: string, lotId: string, lotName: string, price: string) => ({
  ticketTypeId: typeId,
  typeName: 'Congressista',
  lotId,
  lotName,
  price,
  requiresDocument: false,
});

test('8 buyers at once for 5 tickets in two lots: 2 get the first lot, 3 the second, 3 are refused', async () => {
  const { event, typeId } = await eventWithLots();
  const [first, second] = await lotRows(typeId);

  const answers = await Promise.all(
    Array.from({ length: 8 }, () => hold(event.id, `order:${randomUUID()}`, [typeId], { provisional: true })),
  );

  const held = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 409);
  expect(held).toHaveLength(5);
  expect(refused).toHaveLength(3);
  const prices = (await Promise.all(held.map(linesOf))).flat().map((taken) => taken.price);
  expect(prices.sort()).toEqual(['100.00', '100.00', '150.00', '150.00', '150.00']);
  for (const answer of refused) expect(await answer.json()).toEqual({ message: 'Ingresso Congressista esgotado' });

  expect(await typeRows(event.id)).toEqual([expect.objectContaining({ taken: 5 })]);
  expect(await lotRows(typeId)).toEqual([
    expect.objectContaining({ id: first.id, taken: 2 }),
    expect.objectContaining({ id: second.id, taken: 3 }),
  ]);
  expect(await attendees(event.id)).toBe(5);
  const shown = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(shown.ticketTypes).toEqual([
    expect.objectContaining({ id: typeId, remaining: 0, onSale: false, currentLot: null, price: '150.00' }),
  ]);
  expect(catalog.logs.lines.filter((log) => log.msg === 'unhandled error')).toEqual([]);
});

test('one request takes its tickets in order: the first lot while it lasts, then the next', async () => {
  const { event, typeId } = await eventWithLots();
  const [first, second] = await lotRows(typeId);
  expect(await linesOf(await hold(event.id, 'order:a', [typeId]))).toEqual([
    line(typeId, first.id, '1º lote', '100.00'),
  ]);

  const holdId = `order:${randomUUID()}`;
  const answer = await hold(event.id, holdId, [typeId, typeId, typeId]);
  expect(answer.status).toBe(200);
  const lines = [
    line(typeId, first.id, '1º lote', '100.00'),
    line(typeId, second.id, '2º lote', '150.00'),
    line(typeId, second.id, '2º lote', '150.00'),
  ];
  const view = (await answer.json()) as HoldView;
  expect(view.lines).toEqual(lines);
  expect(view.event.ticketTypes[0]).toMatchObject({
    price: '150.00',
    remaining: 1,
    currentLot: { id: second.id, name: '2º lote', price: '150.00', endsAt: null, remaining: 1 },
  });

  // Repeating the hold answers the same tickets, counting nothing twice; the same id with other types is refused.
  const again = await hold(event.id, holdId, [typeId, typeId, typeId]);
  expect(again.status).toBe(200);
  expect(await linesOf(again)).toEqual(lines);
  const without = await catalog.request('PUT', `/internal/events/${event.id}/holds/${holdId}`, {
    body: { quantity: 3 },
  });
  expect(await linesOf(without)).toEqual(lines);
  expect(await lotRows(typeId)).toEqual([expect.objectContaining({ taken: 2 }), expect.objectContaining({ taken: 2 })]);
  expect(await attendees(event.id)).toBe(4);
});

test('a hold is all or nothing: one ticket that cannot be had leaves every count as it was', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '300.00' },
      { name: 'Estudante', price: '120.00', capacity: 1, requiresDocument: true },
    ],
  });
  const [professional, student] = event.ticketTypes.map((type) => type.id) as [string, string];

  const refused = await hold(event.id, 'order:b', [professional, student, student]);
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({ message: 'Ingresso Estudante esgotado' });
  expect((await typeRows(event.id)).map((row) => row.taken)).toEqual([0, 0]);
  expect(await attendees(event.id)).toBe(0);
  expect(await catalog.service.db('holds').where({ id: 'order:b' })).toEqual([]);

  const held = await hold(event.id, 'order:c', [student, professional]);
  expect(await linesOf(held)).toEqual([
    {
      ticketTypeId: student,
      typeName: 'Estudante',
      lotId: null,
      lotName: null,
      price: '120.00',
      requiresDocument: true,
    },
    {
      ticketTypeId: professional,
      typeName: 'Profissional',
      lotId: null,
      lotName: null,
      price: '300.00',
      requiresDocument: false,
    },
  ]);
  // Its capacity reached, the type is sold out; the other still sells.
  const view = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(view.ticketTypes.map(({ name, remaining, onSale }) => ({ name, remaining, onSale }))).toEqual([
    { name: 'Profissional', remaining: null, onSale: true },
    { name: 'Estudante', remaining: 0, onSale: false },
  ]);
  expect(view.price).toBe('300.00');
  const soldOut = await hold(event.id, 'order:d', [student]);
  expect(await soldOut.json()).toEqual({ message: 'Ingresso Estudante esgotado' });
});

test("the event's spots bound every type", async () => {
  const event = await catalog.createEvent({
    maxAttendees: 3,
    ticketTypes: [
      { name: 'Profissional', price: '300.00', capacity: 10 },
      { name: 'Estudante', price: '120.00' },
    ],
  });
  const [professional, student] = event.ticketTypes.map((type) => type.id) as [string, string];
  expect(event.ticketTypes.map((type) => type.remaining)).toEqual([3, 3]);
  expect((await hold(event.id, 'order:e', [professional, student])).status).toBe(200);

  const refused = await hold(event.id, 'order:f', [student, student]);
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({ message: 'Evento esgotado' });
  const view = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(view.ticketTypes.map((type) => type.remaining)).toEqual([1, 1]);
});

test('a lot ending by date turns to the next; a release gives its lot back, to be sold again', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      {
        name: 'Congressista',
        price: '200.00',
        lots: [
          { name: 'Pré-venda', price: '80.00', quantity: 1, endsAt: inDays(5) },
          { price: '120.00', endsAt: inDays(10) },
          { price: '200.00' },
        ],
      },
    ],
  });
  const typeId = event.ticketTypes[0]!.id;
  const [presale, second, third] = await lotRows(typeId);
  expect(event.ticketTypes[0]).toMatchObject({
    price: '80.00',
    remaining: null,
    currentLot: {
      id: presale.id,
      name: 'Pré-venda',
      price: '80.00',
      endsAt: presale.ends_at.toISOString(),
      remaining: 1,
    },
  });
  expect(event.price).toBe('80.00');

  expect(await linesOf(await hold(event.id, 'order:g', [typeId]))).toEqual([
    line(typeId, presale.id, 'Pré-venda', '80.00'),
  ]);
  expect(await linesOf(await hold(event.id, 'order:h', [typeId]))).toEqual([
    line(typeId, second.id, '2º lote', '120.00'),
  ]);

  // Released, the pre-sale ticket comes back to its lot, which sells again while its date lasts.
  expect((await release(event.id, 'order:g')).status).toBe(200);
  expect(await lotRows(typeId)).toEqual([
    expect.objectContaining({ taken: 0 }),
    expect.objectContaining({ taken: 1 }),
    expect.objectContaining({ taken: 0 }),
  ]);
  expect(await linesOf(await hold(event.id, 'order:i', [typeId]))).toEqual([
    line(typeId, presale.id, 'Pré-venda', '80.00'),
  ]);

  // Time passes: the second lot's date too. The third sells.
  await catalog.service
    .db('ticket_lots')
    .whereIn('id', [presale.id, second.id])
    .update({ ends_at: catalog.service.db.raw("now() - interval '1 second'") });
  expect(await linesOf(await hold(event.id, 'order:j', [typeId]))).toEqual([
    line(typeId, third.id, '3º lote', '200.00'),
  ]);
  const view = (await (await catalog.request('GET', `/api/events/${event.id}`)).json()) as EventView;
  expect(view.ticketTypes[0]!.currentLot).toMatchObject({ id: third.id, name: '3º lote', remaining: null });

  // A provisional hold never confirmed gives back its type and lot counts too.
  await catalog.service
    .db('holds')
    .where({ id: 'order:j' })
    .update({ expires_at: catalog.service.db.raw("now() - interval '1 second'") });
  await giveBackLapsedHolds({ db: catalog.service.db, outbox: catalog.service.outbox, logger: catalog.service.logger });
  expect((await lotRows(typeId)).map((row) => row.taken)).toEqual([1, 1, 0]);
  expect((await typeRows(event.id))[0].taken).toBe(2);
});

test('a hidden type is sold only to a hold that may see it; an unknown type is unknown', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '300.00' },
      { name: 'Convidado', price: '0.00', hidden: true },
    ],
  });
  expect(event.ticketTypes.map((type) => type.name)).toEqual(['Profissional']);
  expect(event.price).toBe('300.00');
  const [hidden] = (await typeRows(event.id)).filter((row) => row.hidden);

  for (const typeId of [hidden.id, randomUUID()]) {
    const refused = await hold(event.id, `order:${randomUUID()}`, [typeId]);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: 'Tipo de ingresso não encontrado neste evento' });
  }
  const promoted = await hold(event.id, 'promo:1', [hidden.id], { includeHidden: true });
  expect(promoted.status).toBe(200);
  expect(await linesOf(promoted)).toEqual([expect.objectContaining({ typeName: 'Convidado', price: '0.00' })]);
  expect(await attendees(event.id)).toBe(1);
});

test('a type sells only within its sale window', async () => {
  const event = await catalog.createEvent({
    ticketTypes: [
      { name: 'Antecipado', price: '90.00', salesEndAt: inDays(-1) },
      { name: 'Profissional', price: '300.00' },
      { name: 'Estudante', price: '120.00', salesStartAt: inDays(2), salesEndAt: inDays(20) },
    ],
  });
  const [early, , student] = event.ticketTypes;
  expect(event.ticketTypes.map((type) => type.onSale)).toEqual([false, true, false]);
  expect(student!.salesStartAt).toBe(new Date(student!.salesStartAt!).toISOString());
  // The card shows the lowest price on sale now.
  expect(event.price).toBe('300.00');

  for (const type of [early!, student!]) {
    const refused = await hold(event.id, `order:${randomUUID()}`, [type.id]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: `O ingresso ${type.name} não está à venda agora.` });
  }
  expect(await attendees(event.id)).toBe(0);
});

test('items must match the quantity', async () => {
  const event = await catalog.createEvent();
  const response = await catalog.request('PUT', `/internal/events/${event.id}/holds/order:k`, {
    body: { quantity: 2, items: [{ ticketTypeId: event.ticketTypes[0]!.id }] },
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: 'Informe um ingresso para cada unidade da quantidade' });
});

test('an event from before ticket types still sells its type, named by the event id; a release gives it back', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5 });
  // As the migration left it: its only type has the event's id.
  await catalog.service.db('ticket_types').where({ event_id: event.id }).update({ id: event.id });

  const answer = await hold(event.id, 'order:old', [event.id, event.id]);
  expect(answer.status).toBe(200);
  expect(await linesOf(answer)).toEqual([
    {
      ticketTypeId: event.id,
      typeName: 'Ingresso',
      lotId: null,
      lotName: null,
      price: '150.00',
      requiresDocument: false,
    },
    {
      ticketTypeId: event.id,
      typeName: 'Ingresso',
      lotId: null,
      lotName: null,
      price: '150.00',
      requiresDocument: false,
    },
  ]);
  expect(await typeRows(event.id)).toEqual([expect.objectContaining({ id: event.id, taken: 2 })]);
  expect((await release(event.id, 'order:old')).status).toBe(200);
  expect(await typeRows(event.id)).toEqual([expect.objectContaining({ id: event.id, taken: 0 })]);
  expect(await attendees(event.id)).toBe(0);
});

test('releases and holds of one type at once all succeed, and the counts add up', async () => {
  const { event, typeId } = await eventWithLots({ maxAttendees: 20 });
  const first = Array.from({ length: 5 }, () => `order:${randomUUID()}`);
  for (const holdId of first) expect((await hold(event.id, holdId, [typeId])).status).toBe(200);

  const next = Array.from({ length: 5 }, () => `order:${randomUUID()}`);
  const answers = await Promise.all([
    ...first.map((holdId) => release(event.id, holdId)),
    ...next.map((holdId) => hold(event.id, holdId, [typeId])),
  ]);

  const statuses = answers.map((answer) => answer.status);
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
  // A new hold finds the tickets the releases before it gave back; none may be left when it comes first.
  expect(statuses.slice(5).every((status) => status === 200 || status === 409)).toBe(true);
  const held = next.length - statuses.slice(5).filter((status) => status === 409).length;
  const lots = (await lotRows(typeId)).map((row) => row.taken as number);
  expect(lots[0]! + lots[1]!).toBe(held);
  expect(lots[0]).toBeLessThanOrEqual(2);
  expect(lots[1]).toBeLessThanOrEqual(3);
  expect((await typeRows(event.id))[0].taken).toBe(held);
  expect(await attendees(event.id)).toBe(held);
  expect(catalog.logs.lines.filter((log) => log.msg === 'unhandled error')).toEqual([]);
});
