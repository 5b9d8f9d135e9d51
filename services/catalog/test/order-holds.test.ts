import { randomUUID } from 'node:crypto';
import { defineService } from '@ticketing/platform';
import { startTestService, uniqueName, waitFor, type TestService } from '@ticketing/platform/testing';
import { orderHoldId } from '@ticketing/proto';
import { startCatalog, type Catalog } from './support.ts';

/** Stands in for the orders service: it only publishes what orders publishes. */
const orders = defineService({ name: 'orders', migrations: [], setup: () => ({}) });

let catalog: Catalog;
let producer: TestService<unknown>;
beforeAll(async () => {
  const busSchema = uniqueName('bus');
  catalog = await startCatalog({ busSchema });
  producer = await startTestService(orders, { busSchema });
});
afterAll(async () => {
  await producer.stop();
  await catalog.service.stop();
});

const publish = (type: 'order.cancelled' | 'order.expired', orderId: string, eventId: string) =>
  producer.db.transaction((trx) =>
    producer.outbox.add(trx, type, orderId, { orderId, eventId, userId: randomUUID(), paymentId: null }),
  );

const attendees = async (eventId: string) =>
  (await catalog.service.db('events').where({ id: eventId }).first()).current_attendees as number;

test('a cancelled or expired order gives its spot back once, even when the event comes twice', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5 });
  const [cancelled, expired] = [randomUUID(), randomUUID()];
  for (const orderId of [cancelled, expired]) {
    const held = await fetch(`${catalog.service.url}/internal/events/${event.id}/holds/${orderHoldId(orderId)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: 1 }),
    });
    expect(held.status).toBe(200);
  }
  expect(await attendees(event.id)).toBe(2);

  await publish('order.cancelled', cancelled, event.id);
  await publish('order.expired', expired, event.id);
  await publish('order.expired', expired, event.id);
  await waitFor(async () => (await attendees(event.id)) === 0);
  const handled = await waitFor(async () => {
    const rows = await catalog.service.db('inbox').select('handler', 'outcome');
    return rows.length === 3 && rows;
  });
  expect(handled.every((row) => row.outcome === 'handled')).toBe(true);
  expect(await attendees(event.id)).toBe(0);
});

test('an order refused before it held anything has nothing to give back, and is not an error', async () => {
  const event = await catalog.createEvent({ maxAttendees: 5 });
  const envelope = await publish('order.cancelled', randomUUID(), event.id);
  const row = await waitFor(() => catalog.service.db('inbox').where({ event_id: envelope.id }).first());
  expect(row.outcome).toBe('handled');
  expect(await attendees(event.id)).toBe(0);
});
