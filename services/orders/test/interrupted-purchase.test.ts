import { json, startOrders, type Harness } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

test('a purchase whose process died before storing its charge is given up when the buyer tries again: a new order takes the spot', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const who = await h.buyer();
  const checkout = { 'idempotency-key': 'checkout-interrompido' };
  const first = await json(await h.buy(who, { eventId: event.id, paymentMethod: 'pix' }, checkout));
  // What a process killed between making the charge and storing it leaves, long enough ago that no request is still
  // making it.
  await h.orders
    .db('orders')
    .where({ id: first.order.id })
    .update({ asaas_payment_id: null, created_at: h.orders.db.raw("now() - interval '10 minutes'") });

  const again = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' }, checkout);
  expect(again.status).toBe(201);
  const { order } = await json(again);
  expect(order.id).not.toBe(first.order.id);
  expect(await h.orderRow(first.order.id)).toMatchObject({ status: 'cancelled', idempotency_key: null });
  // The only spot passed to the new order; order.cancelled has payments delete the charge made for the first.
  expect(await h.holds(event.id)).toEqual([
    expect.objectContaining({ id: `order:${first.order.id}`, released_at: expect.any(Date) }),
    expect.objectContaining({ id: `order:${order.id}`, released_at: null }),
  ]);
  expect(await h.events('order.cancelled', first.order.id)).toHaveLength(1);
  expect(h.lines('order creation failed')).toEqual([
    expect.objectContaining({ orderId: first.order.id, reason: 'creation_interrupted' }),
  ]);
});
