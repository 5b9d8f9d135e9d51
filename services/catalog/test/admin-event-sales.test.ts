import { randomUUID } from 'node:crypto';
import { defineService } from '@ticketing/platform';
import { startTestService, uniqueName, waitFor, type TestService } from '@ticketing/platform/testing';
import { courtesyLinkHoldId, orderHoldId, type AdminEventView } from '@ticketing/proto';
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

const paid = (orderId: string, eventId: string, courtesyLinkId: string | null = null) =>
  producer.db.transaction((trx) =>
    producer.outbox.add(trx, 'order.paid', orderId, {
      orderId,
      orderNumber: 'EF-000001',
      userId: randomUUID(),
      eventId,
      amount: courtesyLinkId ? '0.00' : '155.00',
      paidAt: new Date().toISOString(),
      buyer: { name: 'Maria da Silva', email: 'maria@example.com.br', cpf: null },
      event: { title: 'Workshop', date: new Date().toISOString(), location: 'Belo Horizonte – MG' },
      courtesyLinkId,
    }),
  );

const hold = async (eventId: string, holdId: string, quantity = 1) => {
  const response = await catalog.request('PUT', `/internal/events/${eventId}/holds/${holdId}`, { body: { quantity } });
  expect(response.status).toBe(200);
};

const handled = (envelopes: { id: string }[]) =>
  waitFor(async () => {
    const rows = await catalog.service.db('inbox').whereIn(
      'event_id',
      envelopes.map((envelope) => envelope.id),
    );
    return rows.length === envelopes.length && rows;
  });

async function adminView(eventId: string): Promise<AdminEventView> {
  const response = await catalog.request('GET', `/api/admin/events/${eventId}`, { token: catalog.adminToken });
  expect(response.status).toBe(200);
  return (await response.json()) as AdminEventView;
}

test('paid orders and used courtesies count as sold, the rest of the taken spots as held', async () => {
  const event = await catalog.createEvent({ maxAttendees: 10 });
  const [paidOrder, pendingOrder, linkId] = [randomUUID(), randomUUID(), randomUUID()];
  await hold(event.id, orderHoldId(paidOrder));
  await hold(event.id, orderHoldId(pendingOrder));
  await hold(event.id, courtesyLinkHoldId(linkId), 3);

  const first = await paid(paidOrder, event.id);
  const courtesy = await paid(randomUUID(), event.id, linkId);
  const again = await paid(paidOrder, event.id);
  await handled([first, courtesy, again]);
  expect(await adminView(event.id)).toMatchObject({ currentAttendees: 5, sold: 2, held: 3, remaining: 5 });

  // A courtesy link closed with its used spot kept: the kept spot stays sold, the others come back.
  const released = await catalog.request(
    'DELETE',
    `/internal/events/${event.id}/holds/${courtesyLinkHoldId(linkId)}?keep=1`,
    {
      caller: 'courtesy',
    },
  );
  expect(released.status).toBe(200);
  expect(await adminView(event.id)).toMatchObject({ currentAttendees: 3, sold: 2, held: 1 });

  // Sold and held spots both bound the capacity.
  const refused = await catalog.request('PATCH', `/api/admin/events/${event.id}`, {
    token: catalog.adminToken,
    body: { maxAttendees: 2 },
  });
  expect([refused.status, await refused.json()]).toEqual([
    409,
    { message: 'A capacidade não pode ser menor que os 3 ingressos já vendidos ou reservados' },
  ]);
});

test('a paid order that held no spot is noted and changes no count', async () => {
  const event = await catalog.createEvent({ maxAttendees: 4 });
  const orderId = randomUUID();
  await handled([await paid(orderId, event.id)]);
  expect(await adminView(event.id)).toMatchObject({ currentAttendees: 0, sold: 0, held: 0 });
  expect(catalog.logs.lines).toContainEqual(expect.objectContaining({ msg: 'paid order held no spot', orderId }));
});
