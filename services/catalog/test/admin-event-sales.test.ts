import { randomUUID } from 'node:crypto';
import { waitFor } from '@ticketing/testkit';
import { courtesyLinkHoldId, orderHoldId, type AdminEventView } from '@ticketing/proto';
import { catalogHearingOrders } from './support.ts';

const h = catalogHearingOrders();

const paid = (orderId: string, eventId: string, courtesyLinkId: string | null = null) =>
  h.producer.db.transaction((trx) =>
    h.producer.outbox.add(trx, 'order.paid', orderId, {
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
  const response = await h.catalog.request('PUT', `/internal/events/${eventId}/holds/${holdId}`, {
    body: { quantity },
  });
  expect(response.status).toBe(200);
};

const handled = (envelopes: { id: string }[]) =>
  waitFor(async () => {
    const rows = await h.catalog.service.db('inbox').whereIn(
      'event_id',
      envelopes.map((envelope) => envelope.id),
    );
    return rows.length === envelopes.length && rows;
  });

async function adminView(eventId: string): Promise<AdminEventView> {
  const response = await h.catalog.request('GET', `/api/admin/events/${eventId}`, { token: h.catalog.adminToken });
  expect(response.status).toBe(200);
  return (await response.json()) as AdminEventView;
}

test('paid orders and used courtesies count as sold, the rest of the taken spots as held', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 10 });
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
  const released = await h.catalog.request(
    'DELETE',
    `/internal/events/${event.id}/holds/${courtesyLinkHoldId(linkId)}?keep=1`,
    {
      caller: 'courtesy',
    },
  );
  expect(released.status).toBe(200);
  expect(await adminView(event.id)).toMatchObject({ currentAttendees: 3, sold: 2, held: 1 });

  // Sold and held spots both bound the capacity.
  const refused = await h.catalog.request('PATCH', `/api/admin/events/${event.id}`, {
    token: h.catalog.adminToken,
    body: { maxAttendees: 2 },
  });
  expect([refused.status, await refused.json()]).toEqual([
    409,
    { message: 'A capacidade não pode ser menor que os 3 ingressos já vendidos ou reservados' },
  ]);
});

test('a paid order that held no spot is noted and changes no count', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 4 });
  const orderId = randomUUID();
  await handled([await paid(orderId, event.id)]);
  expect(await adminView(event.id)).toMatchObject({ currentAttendees: 0, sold: 0, held: 0 });
  expect(h.catalog.logs.lines).toContainEqual(expect.objectContaining({ msg: 'paid order held no spot', orderId }));
});
