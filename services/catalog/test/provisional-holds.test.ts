import { randomUUID } from 'node:crypto';
import { giveBackLapsedHolds } from '../src/domain/inventory.ts';
import { startCatalog, type Catalog } from './support.ts';

/** A spot held for an order being placed is the catalog's to give back if the order never confirms it. */
let catalog: Catalog;

beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.service.stop());

const path = (eventId: string, holdId: string) => `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`;
const holdProvisionally = (eventId: string, holdId: string) =>
  catalog.request('PUT', path(eventId, holdId), { body: { quantity: 1, provisional: true } });
const confirm = (eventId: string, holdId: string) => catalog.request('POST', `${path(eventId, holdId)}/confirm`);

const holdRow = (id: string) => catalog.service.db('holds').where({ id }).first();
const eventRow = (id: string) => catalog.service.db('events').where({ id }).first();
/** The hold's time runs out now, as it would once PROVISIONAL_HOLD_SECONDS passed without a confirmation. */
const runOut = (id: string) =>
  catalog.service
    .db('holds')
    .where({ id })
    .update({ expires_at: catalog.service.db.raw(`now() - interval '1 second'`) });
const sweep = () =>
  giveBackLapsedHolds({ db: catalog.service.db, outbox: catalog.service.outbox, logger: catalog.service.logger });

test('a provisional hold takes its spot at once and keeps it for good once confirmed; confirming again changes nothing', async () => {
  const event = await catalog.createEvent({ maxAttendees: 2 });
  const holdId = `order:${randomUUID()}`;
  const before = Date.now();

  const held = await holdProvisionally(event.id, holdId);
  expect(held.status).toBe(200);
  expect(await held.json()).toMatchObject({ holdId, released: false, event: { currentAttendees: 1, remaining: 1 } });
  const { expires_at: expiresAt } = await holdRow(holdId);
  expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(110_000);
  expect(expiresAt.getTime() - before).toBeLessThanOrEqual(130_000);

  for (let i = 0; i < 2; i++) expect((await confirm(event.id, holdId)).status).toBe(204);
  expect(await holdRow(holdId)).toMatchObject({ expires_at: null, released_at: null });
  expect(await sweep()).toBe(0);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});

test('a provisional hold never confirmed is given back once by the sweep; a late confirmation is refused', async () => {
  const event = await catalog.createEvent({ maxAttendees: 1 });
  const lapsing = `order:${randomUUID()}`;
  expect((await holdProvisionally(event.id, lapsing)).status).toBe(200);
  expect((await holdProvisionally(event.id, `order:${randomUUID()}`)).status).toBe(409);

  await runOut(lapsing);
  expect(await sweep()).toBe(1);
  expect(await sweep()).toBe(0);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  expect((await holdRow(lapsing)).released_at).toBeInstanceOf(Date);
  // Only its creation was announced: the count moved quietly.
  expect(await catalog.changes(event.id)).toHaveLength(1);
  expect(catalog.logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'provisional holds lapsed', holds: [lapsing] }),
  );

  const late = await confirm(event.id, lapsing);
  expect(late.status).toBe(409);
  expect(await late.json()).toEqual({ message: 'Esta reserva já foi liberada' });
  // The spot is free for the next buyer.
  expect((await holdProvisionally(event.id, `order:${randomUUID()}`)).status).toBe(200);
});

test('a hold that is not provisional never lapses', async () => {
  const event = await catalog.createEvent({ maxAttendees: 3 });
  const kept = `courtesy-link:${randomUUID()}`;
  expect((await catalog.request('PUT', path(event.id, kept), { body: { quantity: 2 } })).status).toBe(200);
  expect(await holdRow(kept)).toMatchObject({ expires_at: null });
  expect(await sweep()).toBe(0);
  expect(await eventRow(event.id)).toMatchObject({ current_attendees: 2 });
});

test('confirming an unknown hold, or one of another event, is 404 "Reserva não encontrada"', async () => {
  const event = await catalog.createEvent({ maxAttendees: 3 });
  const other = await catalog.createEvent({ maxAttendees: 3 });
  const holdId = `order:${randomUUID()}`;
  await holdProvisionally(event.id, holdId);
  for (const [eventId, id] of [
    [event.id, `order:${randomUUID()}`],
    [other.id, holdId],
  ] as const) {
    const response = await confirm(eventId, id);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Reserva não encontrada' });
  }
  expect(await holdRow(holdId)).toMatchObject({ released_at: null, expires_at: expect.any(Date) });
});
