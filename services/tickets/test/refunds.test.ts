import { orderPaid, orderRefunded, startTickets, waitFor, type Harness, ticketRows } from './support.ts';

let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

const ticketsOf = (orderId: string) => ticketRows(tickets.db, { order_id: orderId });
const issuedFor = async (orderId: string) =>
  (await tickets.events('ticket.issued')).filter((event) => event.orderId === orderId);
/** Deliveries of order events the worker recognised as already handled. */
async function duplicates(): Promise<number> {
  const metric = await tickets.worker.metrics.busHandled.get();
  return metric.values
    .filter((value) => value.labels.outcome === 'duplicate' && String(value.labels.topic).startsWith('order.'))
    .reduce((sum, value) => sum + value.value, 0);
}

const logged = (msg: string, orderId: string) =>
  tickets.logs.lines.filter((line) => line.msg === msg && line.orderId === orderId);

test.each(['refund', 'chargeback'] as const)(
  'order.refunded (%s) cancels the ticket: the door answers cancelled and the ticket admits nobody',
  async (reason) => {
    const { order, issued } = await tickets.issue();

    const refunded = await tickets.emit('order.refunded', orderRefunded(order, reason));
    await tickets.handled(refunded);

    expect(await ticketsOf(order.orderId)).toEqual([
      expect.objectContaining({ id: issued.ticketId, status: 'cancelled', used_at: null }),
    ]);
    expect(await tickets.scan(issued.qrText)).toEqual({
      success: false,
      code: 'cancelled',
      message: 'Ingresso cancelado',
      userName: 'Maria da Silva',
      ticketType: null,
      eventTitle: 'Workshop de Farmacovigilância',
      sessionId: order.eventId,
      ticketId: issued.ticketId,
      orderId: order.orderId,
    });
    expect(await tickets.events('ticket.checked-in', issued.ticketId)).toEqual([]);
    expect(await tickets.db('order_cancellations').where({ order_id: order.orderId })).toEqual([
      expect.objectContaining({ reason }),
    ]);
    expect(logged('ticket cancelled', order.orderId)).toEqual([
      expect.objectContaining({ ticketId: issued.ticketId, reason }),
    ]);
  },
);

test('a cancelled ticket cannot be reset, even one used before its order was refunded', async () => {
  const { order, issued } = await tickets.issue();
  expect((await tickets.scan(issued.qrText)).code).toBe('valid');
  const used = (await ticketsOf(order.orderId))[0];

  await tickets.handled(await tickets.emit('order.refunded', orderRefunded(order, 'chargeback')));

  const response = await tickets.reset(order.orderId);
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({ message: 'Este ingresso foi cancelado e não pode ser liberado' });
  expect(await ticketsOf(order.orderId)).toEqual([
    expect.objectContaining({ status: 'cancelled', used_at: used.used_at, used_by: used.used_by }),
  ]);
  expect(await tickets.db('resets').where({ ticket_id: issued.ticketId })).toEqual([]);
  expect(await tickets.events('ticket.reset', issued.ticketId)).toEqual([]);
  expect((await tickets.scan(issued.qrText)).code).toBe('cancelled');
});

test('order.refunded before order.paid: the ticket is issued cancelled, with nothing sent to the buyer', async () => {
  const order = orderPaid();
  const refunded = await tickets.emit('order.refunded', orderRefunded(order));
  await tickets.handled(refunded);
  expect(await ticketsOf(order.orderId)).toEqual([]);
  expect(logged('order cancelled before its ticket', order.orderId)).toHaveLength(1);

  const paid = await tickets.publish(order);
  await tickets.handled(paid);

  expect(await ticketsOf(order.orderId)).toEqual([expect.objectContaining({ status: 'cancelled', used_at: null })]);
  expect(await issuedFor(order.orderId)).toEqual([]);
  expect(logged('ticket issued cancelled: order refunded', order.orderId)).toHaveLength(1);
});

test('order.paid and order.refunded delivered at once, out of order and twice, leave exactly one cancelled ticket', async () => {
  const orders = Array.from({ length: 12 }, () => orderPaid());
  // Each order's two events race each other; half of them arrive refund first, and every event arrives twice.
  const envelopes = await Promise.all(
    orders.flatMap((order, i) => {
      const paid = () => tickets.publish(order);
      const refunded = () => tickets.emit('order.refunded', orderRefunded(order, i % 2 ? 'refund' : 'chargeback'));
      return i % 2 ? [refunded(), paid()] : [paid(), refunded()];
    }),
  );
  await tickets.handled(...envelopes);
  const duplicatesBefore = await duplicates();
  for (const envelope of envelopes) await tickets.redeliver(envelope);
  await waitFor(async () => (await duplicates()) >= duplicatesBefore + envelopes.length);
  // The same facts again under new event ids (a producer that wrote them twice).
  const again = await Promise.all(
    orders.flatMap((order) => [
      tickets.emit('order.refunded', orderRefunded(order)),
      tickets.publish({ ...order, paidAt: new Date().toISOString() }),
    ]),
  );
  await tickets.handled(...again);

  for (const order of orders) {
    expect(await ticketsOf(order.orderId)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
    // A ticket.issued went out only when the payment won the race; its ticket is cancelled all the same.
    expect((await issuedFor(order.orderId)).length).toBeLessThanOrEqual(1);
  }
  expect(
    await tickets.db('order_cancellations').whereIn(
      'order_id',
      orders.map((order) => order.orderId),
    ),
  ).toHaveLength(orders.length);
}, 120_000);
