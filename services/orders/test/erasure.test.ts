import { randomUUID } from 'node:crypto';
import type { EventPayload, EventView } from '@ticketing/proto';
import { bought, paymentConfirmed, json, startOrders, storedAnywhere, type Harness } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const redemption = (userId: string, event: EventView, attendee: { name: string; email: string; cpf: string }) =>
  ({
    redemptionId: randomUUID(),
    linkId: randomUUID(),
    attendeeId: randomUUID(),
    userId,
    eventId: event.id,
    attendee,
    event: { title: event.title, date: event.date, location: event.location },
  }) satisfies EventPayload<'courtesy.redeemed'>;

test('user.deleted erases the buyer from orders and stored events, keeps amounts, dates and statuses, and sticks', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const who = await h.buyer({ name: 'Heloísa Vasconcelos Prado' });
  const someoneElse = await h.buyer();
  const erased = { name: 'Titular removido', email: `removido+${who.id.slice(0, 8)}@anonimo.invalid` };

  const paid = (await bought(h, who, event.id, 'credit_card')).order;
  await paymentConfirmed(h, paid.id);
  const pending = (await bought(h, who, (await h.createEvent()).id, 'boleto')).order;
  await h.handled(
    await h.publish(
      'courtesy.redeemed',
      redemption(who.id, event, { name: who.name, email: who.email, cpf: who.cpf! }),
    ),
  );
  const theirs = (await bought(h, someoneElse, event.id)).order;
  const before = await h.ordersOf(who.id);
  const theirsBefore = await h.orderRow(theirs.id);
  expect(before).toHaveLength(3);

  await h.handled(await h.publish('user.deleted', { userId: who.id }));

  const after = await h.ordersOf(who.id);
  expect(after).toEqual(
    before.map((order) => ({
      ...order,
      buyer_name: erased.name,
      buyer_email: erased.email,
      cpf: null,
      cpf_digits: null,
      updated_at: expect.any(Date),
    })),
  );
  expect(after.map((order) => [order.status, order.amount])).toEqual([
    ['paid', '155.00'],
    ['pending', '155.00'],
    ['paid', '0.00'],
  ]);
  expect(await h.orderRow(theirs.id)).toEqual(theirsBefore);
  // The events kept here (order.created, order.paid of each order) no longer carry the person.
  for (const order of [paid, pending]) {
    for (const written of await h.events(undefined, order.id)) {
      if ('buyer' in written) expect(written.buyer).toEqual({ ...erased, cpf: '' });
    }
  }
  expect((await h.events('order.created', theirs.id))[0]!.buyer).toEqual({
    name: someoneElse.name,
    email: someoneElse.email,
  });
  const listed = await json(await h.request('GET', '/api/orders', { token: who.token }));
  expect(listed.orders).toHaveLength(3);

  // A redemption of theirs that arrives after the deletion makes its order without the person.
  await h.handled(
    await h.publish(
      'courtesy.redeemed',
      redemption(who.id, event, { name: who.name, email: who.email, cpf: who.cpf! }),
    ),
  );
  const latest = (await h.ordersOf(who.id)).at(-1)!;
  expect(latest).toMatchObject({ status: 'paid', buyer_name: erased.name, buyer_email: erased.email, cpf: null });
  expect((await h.events('order.paid', latest.id))[0]!.buyer).toEqual({ ...erased, cpf: null });

  expect(
    await storedAnywhere(h.orders.db, h.orders.schema, [who.name, who.email, who.cpf!, who.cpf!.replace(/\D/g, '')]),
  ).toEqual([]);
  expect(h.lines('personal data erased')).toContainEqual(
    expect.objectContaining({ userId: who.id, orders: 3, events: 4 }),
  );
});
