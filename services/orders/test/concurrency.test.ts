import { startOrders, type Buyer, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

test('300 buyers at once for 100 spots: exactly 100 orders with charges, 200 "Evento esgotado", none oversold', async () => {
  const event = await h.createEvent({ maxAttendees: 100 });
  const buyers: Buyer[] = await Promise.all(Array.from({ length: 300 }, () => h.buyer()));

  const responses = await Promise.all(buyers.map((who) => h.buy(who, { eventId: event.id, paymentMethod: 'pix' })));
  const answers = await Promise.all(
    responses.map(async (response) => [response.status, await json(response)] as const),
  );
  const winners = answers.filter(([status]) => status === 201);
  const losers = answers.filter(([status]) => status === 409);
  expect(winners).toHaveLength(100);
  expect(losers).toHaveLength(200);
  for (const [, body] of losers) expect(body).toEqual({ message: 'Evento esgotado' });

  const rows = await h.orders.db('orders').where({ event_id: event.id });
  expect(rows).toHaveLength(100);
  for (const row of rows)
    expect(row).toMatchObject({ status: 'pending', asaas_payment_id: expect.stringMatching(/^pay_/) });
  expect(new Set(rows.map((row) => row.user_id)).size).toBe(100);
  expect(new Set(rows.map((row) => row.order_number)).size).toBe(100);

  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 100, max_attendees: 100 });
  expect((await h.holds(event.id)).map((hold) => hold.id).sort()).toEqual(rows.map((row) => `order:${row.id}`).sort());
  const charged = h.payments.calls.filter((call) => call.action === 'charge');
  expect(charged).toHaveLength(100);
  expect(new Set(charged.map((call) => call.orderId))).toEqual(new Set(rows.map((row) => row.id)));
  expect((await h.events('order.created')).filter((payload) => payload.eventId === event.id)).toHaveLength(100);
  expect(h.lines('order refused').filter((line) => line.eventId === event.id)).toHaveLength(200);
  expect(h.lines('unhandled error')).toEqual([]);
}, 60_000);
