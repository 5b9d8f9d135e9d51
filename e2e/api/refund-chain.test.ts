import { startTestService, type TestService } from '@ticketing/testkit';
import { ticketsWorkerService } from '@ticketing/tickets';
import { expireOverdueOrders } from '@ticketing/orders';
import { bought, startOrders, waitFor, type Harness } from '../../services/orders/test/support.ts';

/** Orders, the catalog and the tickets worker on one bus: the refund chain as it runs, payments standing in. */
let h: Harness;
let tickets: TestService<unknown>;

beforeAll(async () => {
  h = await startOrders({ catalogOnBus: true });
  tickets = await startTestService(ticketsWorkerService, { busSchema: h.busSchema });
});
afterAll(async () => {
  await tickets.stop();
  await h.stop();
});

const CONSUMED = {
  catalog: ['order.cancelled', 'order.expired', 'order.refunded'],
  tickets: ['order.paid', 'order.refunded'],
};

/** Waits until the catalog and the tickets worker have handled every event orders wrote for them so far. */
async function delivered(): Promise<void> {
  const written = (await h.orders.db('outbox').select('id', 'topic')) as { id: string; topic: string }[];
  await waitFor(async () => {
    for (const [service, topics] of [
      [h.catalog, CONSUMED.catalog],
      [tickets, CONSUMED.tickets],
    ] as const) {
      const expected = written.filter((event) => topics.includes(event.topic)).map((event) => event.id);
      const handled = await service.db('inbox').whereIn('event_id', expected).count({ n: '*' });
      if (Number(handled[0]!.n) !== expected.length) return false;
    }
    return true;
  });
}

const ticketsOf = (orderId: string) => tickets.db('tickets').where({ order_id: orderId });
const attendees = async (eventId: string) => (await h.eventRow(eventId)).current_attendees as number;

async function payment(orderId: string) {
  const row = await h.orderRow(orderId);
  return { orderId, paymentId: row.asaas_payment_id as string, value: row.amount as string };
}
const confirm = async (orderId: string) => {
  const { value, ...ids } = await payment(orderId);
  return h.publish('payment.confirmed', {
    ...ids,
    value,
    providerStatus: 'RECEIVED',
    paidAt: new Date().toISOString(),
  });
};
const refund = async (orderId: string, reason: 'refund' | 'chargeback') => {
  const { value: _value, ...ids } = await payment(orderId);
  return h.publish('payment.refunded', { ...ids, providerStatus: 'REFUNDED', reason });
};

test('a refund of a paid order, delivered twice and racing a repeated confirmation, cancels one ticket and frees one spot', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const { order } = await bought(h, await h.buyer(), event.id);
  await bought(h, await h.buyer(), event.id);
  await h.handled(await confirm(order.id));
  await waitFor(async () => (await ticketsOf(order.id)).length === 1);
  expect(await attendees(event.id)).toBe(2);

  const racing = await Promise.all([
    refund(order.id, 'refund'),
    refund(order.id, 'refund'),
    confirm(order.id),
    refund(order.id, 'chargeback'),
  ]);
  for (const envelope of racing) await h.handled(envelope);
  await delivered();

  // Whichever refund came first decided the reason; the others found the order refunded.
  expect(await h.orderRow(order.id)).toMatchObject({
    status: 'refunded',
    refund_reason: expect.stringMatching(/^(refund|chargeback)$/),
  });
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
  expect(await ticketsOf(order.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  // The other buyer keeps their spot: exactly one came back.
  expect(await attendees(event.id)).toBe(1);
  expect(await h.holds(event.id)).toEqual([
    expect.objectContaining({ id: `order:${order.id}`, released_at: expect.any(Date) }),
    expect.objectContaining({ released_at: null }),
  ]);
});

test('a refund overtaking the confirmation cancels the order: its spot comes back once and no ticket is issued', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const { order } = await bought(h, await h.buyer(), event.id);
  await bought(h, await h.buyer(), event.id);

  await h.handled(await refund(order.id, 'chargeback'));
  for (const envelope of await Promise.all([confirm(order.id), confirm(order.id), refund(order.id, 'chargeback')]))
    await h.handled(envelope);
  await delivered();

  expect(await h.orderRow(order.id)).toMatchObject({ status: 'cancelled', refund_reason: 'chargeback' });
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(await ticketsOf(order.id)).toEqual([]);
  expect(await attendees(event.id)).toBe(1);
});

test('an order paid late under a hold of its own, then disputed, gives that spot back and its ticket is cancelled', async () => {
  const event = await h.createEvent({ maxAttendees: 2 });
  const { order } = await bought(h, await h.buyer(), event.id);
  await bought(h, await h.buyer(), event.id);
  await h.orders
    .db('orders')
    .where({ id: order.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  await expireOverdueOrders({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger });
  await delivered();
  expect(await attendees(event.id)).toBe(1);

  // The late payment takes its spot back once the confirmation is recorded, then the order is paid.
  await h.handled(await confirm(order.id));
  await waitFor(async () => (await h.orderRow(order.id)).status === 'paid');
  await delivered();
  expect(await ticketsOf(order.id)).toEqual([expect.objectContaining({ status: 'valid' })]);
  expect(await attendees(event.id)).toBe(2);

  await h.handled(await refund(order.id, 'chargeback'));
  await h.handled(await refund(order.id, 'chargeback'));
  await delivered();
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'refunded', refund_reason: 'chargeback' });
  expect(await ticketsOf(order.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  expect(await attendees(event.id)).toBe(1);
  expect((await h.holds(event.id)).filter((hold) => hold.id.startsWith(`order:${order.id}`))).toEqual([
    expect.objectContaining({ id: `order:${order.id}`, released_at: expect.any(Date) }),
    expect.objectContaining({ id: `order:${order.id}:late`, released_at: expect.any(Date) }),
  ]);
});
