import { randomUUID } from 'node:crypto';
import { serviceAuthorization, waitFor } from '@ticketing/testkit';
import { orderHoldId } from '@ticketing/proto';
import { catalogHearingOrders } from './support.ts';

const h = catalogHearingOrders();

const publish = (type: 'order.cancelled' | 'order.expired', orderId: string, eventId: string) =>
  h.producer.db.transaction((trx) =>
    h.producer.outbox.add(trx, type, orderId, { orderId, eventId, userId: randomUUID(), paymentId: null }),
  );

const hold = async (eventId: string, holdId: string) => {
  const response = await h.catalog.request('PUT', `/internal/events/${eventId}/holds/${encodeURIComponent(holdId)}`, {
    body: { quantity: 1 },
  });
  expect(response.status).toBe(200);
};

const refunded = (orderId: string, eventId: string, reason: 'refund' | 'chargeback' | 'late_payment') =>
  h.producer.db.transaction((trx) =>
    h.producer.outbox.add(trx, 'order.refunded', orderId, {
      orderId,
      orderNumber: 'EF-000001',
      userId: randomUUID(),
      eventId,
      reason,
      amount: '155.00',
      buyer: { name: 'Maria da Silva', email: 'maria@example.com.br' },
      event: { title: 'Workshop', date: new Date().toISOString(), location: 'Belo Horizonte – MG' },
    }),
  );

const handled = (...envelopes: { id: string }[]) =>
  waitFor(async () => {
    const rows = await h.catalog.service.db('inbox').whereIn(
      'event_id',
      envelopes.map((envelope) => envelope.id),
    );
    return rows.length === envelopes.length && rows;
  });

const attendees = async (eventId: string) =>
  (await h.catalog.service.db('events').where({ id: eventId }).first()).current_attendees as number;

test('a cancelled or expired order gives its spot back once, even when the event comes twice', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 5 });
  const [cancelled, expired] = [randomUUID(), randomUUID()];
  for (const orderId of [cancelled, expired]) {
    const held = await fetch(`${h.catalog.service.url}/internal/events/${event.id}/holds/${orderHoldId(orderId)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: await serviceAuthorization('orders', 'catalog') },
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
    const rows = await h.catalog.service.db('inbox').select('handler', 'outcome');
    return rows.length === 3 && rows;
  });
  expect(handled.every((row) => row.outcome === 'handled')).toBe(true);
  expect(await attendees(event.id)).toBe(0);
});

test('an order refused before it held anything has nothing to give back, and is not an error', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 5 });
  const envelope = await publish('order.cancelled', randomUUID(), event.id);
  const row = await waitFor(() => h.catalog.service.db('inbox').where({ event_id: envelope.id }).first());
  expect(row.outcome).toBe('handled');
  expect(await attendees(event.id)).toBe(0);
});

test.each(['refund', 'chargeback'] as const)(
  "a %s gives the paid order's spot back once, however often and concurrently it is delivered",
  async (reason) => {
    const event = await h.catalog.createEvent({ maxAttendees: 3 });
    const [orderId, other] = [randomUUID(), randomUUID()];
    await hold(event.id, orderHoldId(orderId));
    await hold(event.id, orderHoldId(other));

    const rows = await handled(
      ...(await Promise.all([
        refunded(orderId, event.id, reason),
        refunded(orderId, event.id, reason),
        refunded(orderId, event.id, reason),
      ])),
    );
    expect(rows.every((row) => row.outcome === 'handled')).toBe(true);
    expect(await attendees(event.id)).toBe(1);
    expect(
      await h.catalog.service
        .db('holds')
        .where({ id: orderHoldId(orderId) })
        .first(),
    ).toMatchObject({
      released_at: expect.any(Date),
    });
    expect(
      await h.catalog.service
        .db('holds')
        .where({ id: orderHoldId(other) })
        .first(),
    ).toMatchObject({
      released_at: null,
    });
  },
);

test('a late-paid order that is refunded gives back the spot it took again; a late payment refunded holds none', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 2 });
  const [latePaid, lateRefunded] = [randomUUID(), randomUUID()];
  await hold(event.id, orderHoldId(latePaid));
  await handled(await publish('order.expired', latePaid, event.id));
  // Paid after it expired: the spot is taken again under the late payment's own hold.
  await hold(event.id, `${orderHoldId(latePaid)}:late`);
  await hold(event.id, orderHoldId(lateRefunded));
  expect(await attendees(event.id)).toBe(2);

  await handled(await refunded(lateRefunded, event.id, 'late_payment'));
  expect(await attendees(event.id)).toBe(2);

  await handled(await refunded(latePaid, event.id, 'chargeback'), await publish('order.expired', latePaid, event.id));
  expect(await attendees(event.id)).toBe(1);
  expect(
    (await h.catalog.service.db('holds').where({ event_id: event.id }).orderBy('created_at')).map((row) => [
      row.id,
      row.released_at !== null,
    ]),
  ).toEqual([
    [orderHoldId(latePaid), true],
    [`${orderHoldId(latePaid)}:late`, true],
    [orderHoldId(lateRefunded), false],
  ]);
});

test('a refunded order that held no spot here is handled without changing anything', async () => {
  const event = await h.catalog.createEvent({ maxAttendees: 2 });
  const [row] = await handled(await refunded(randomUUID(), event.id, 'refund'));
  expect(row.outcome).toBe('handled');
  expect(await attendees(event.id)).toBe(0);
});

test('an order of tickets by type gives its types and lots back when it expires or is refunded, once', async () => {
  const event = await h.catalog.createEvent({
    ticketTypes: [
      { name: 'Congressista', price: '150.00', lots: [{ price: '100.00', quantity: 2 }, { price: '150.00' }] },
    ],
  });
  const typeId = event.ticketTypes[0]!.id;
  const [expired, paid] = [randomUUID(), randomUUID()];
  for (const orderId of [expired, paid]) {
    const response = await h.catalog.request('PUT', `/internal/events/${event.id}/holds/${orderHoldId(orderId)}`, {
      body: { quantity: 2, items: [{ ticketTypeId: typeId }, { ticketTypeId: typeId }] },
    });
    expect(response.status).toBe(200);
  }
  const counts = async () => ({
    type: (await h.catalog.service.db('ticket_types').where({ id: typeId }).first()).taken as number,
    lots: (await h.catalog.service.db('ticket_lots').where({ ticket_type_id: typeId }).orderBy('position')).map(
      (lot) => lot.taken as number,
    ),
  });
  expect(await counts()).toEqual({ type: 4, lots: [2, 2] });

  await handled(await publish('order.expired', expired, event.id), await publish('order.expired', expired, event.id));
  expect(await counts()).toEqual({ type: 2, lots: [0, 2] });
  await handled(await refunded(paid, event.id, 'refund'), await refunded(paid, event.id, 'refund'));
  expect(await counts()).toEqual({ type: 0, lots: [0, 0] });
  expect(await attendees(event.id)).toBe(0);
});
