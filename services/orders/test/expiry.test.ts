import { expireOverdueOrders } from '../src/index.ts';
import { bought, startOrders, waitFor, type Harness } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const deps = () => ({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger });
const overdue = (orderId: string) =>
  h.orders
    .db('orders')
    .where({ id: orderId })
    .update({ expires_at: new Date(Date.now() - 60_000) });

test('the sweep expires pending orders past their window, each with order.expired, and nothing else', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const who = await h.buyer();
  const [late1, late2, fresh, paidLate] = [
    await bought(h, who, event.id),
    await bought(h, await h.buyer(), event.id),
    await bought(h, await h.buyer(), event.id),
    await bought(h, await h.buyer(), event.id, 'boleto'),
  ].map((answer) => answer.order);
  await overdue(late1!.id);
  await overdue(late2!.id);
  await h.orders
    .db('orders')
    .where({ id: paidLate!.id })
    .update({ status: 'paid', expires_at: new Date(0) });

  const expired = await expireOverdueOrders(deps());
  expect(expired.filter((id) => [late1!.id, late2!.id, fresh!.id, paidLate!.id].includes(id)).sort()).toEqual(
    [late1!.id, late2!.id].sort(),
  );
  for (const order of [late1!, late2!]) {
    const row = await h.orderRow(order.id);
    expect(row.status).toBe('expired');
    expect(row.expired_at).toBeInstanceOf(Date);
  }
  expect(await h.orderRow(fresh!.id)).toMatchObject({ status: 'pending' });
  expect(await h.orderRow(paidLate!.id)).toMatchObject({ status: 'paid' });
  expect(await h.events('order.expired', late1!.id)).toEqual([
    { type: 'order.expired', orderId: late1!.id, userId: who.id, eventId: event.id, paymentId: late1!.asaasPaymentId },
  ]);
  expect(await h.events('order.expired', fresh!.id)).toEqual([]);
  expect(h.lines('order expired')).toContainEqual(expect.objectContaining({ orderId: late2!.id }));
  // No call to anyone: the catalog and payments act on order.expired.
  expect(h.payments.calls.filter((call) => call.orderId === late1!.id).map((call) => call.action)).toEqual(['charge']);

  expect(await expireOverdueOrders(deps())).toEqual([]);
  expect(await h.events('order.expired', late1!.id)).toHaveLength(1);

  // An expired order is closed for its buyer too.
  const cancel = await h.request('DELETE', `/api/orders/${late1!.id}/cancel`, { token: who.token });
  expect(cancel.status).toBe(409);
});

test('sweeps running at once (replicas) share the work: every order expired once', async () => {
  const event = await h.createEvent();
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await bought(h, await h.buyer(), event.id)).order.id);
  for (const id of ids) await overdue(id);

  const results = await Promise.all(Array.from({ length: 4 }, () => expireOverdueOrders(deps(), { batchSize: 2 })));
  const all = results.flat().filter((id) => ids.includes(id));
  expect(all.sort()).toEqual([...ids].sort());
  for (const id of ids) expect(await h.events('order.expired', id)).toHaveLength(1);
});

test('the periodic job of a running replica expires overdue orders by itself', async () => {
  const { order } = await bought(h, await h.buyer(), (await h.createEvent()).id);
  await overdue(order.id);
  const replica = await h.replica({ ORDER_EXPIRY_SWEEP_MS: '50' });
  try {
    await waitFor(async () => (await h.orderRow(order.id)).status === 'expired');
  } finally {
    await replica.close();
  }
  expect(await h.events('order.expired', order.id)).toHaveLength(1);
});
