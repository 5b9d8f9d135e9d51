import { orderPaid, startTickets, withdrawalRequested, type Harness, ticketRows } from './support.ts';

/**
 * The buyer's withdrawal: the worker voids the ticket unless the door admitted it first, and tells orders which
 * (the money goes back only for a void ticket).
 */
let tickets: Harness;

beforeAll(async () => {
  tickets = await startTickets();
});
afterAll(() => tickets.stop());

const ticketRow = async (orderId: string) => (await ticketRows(tickets.db, { order_id: orderId }))[0]!;
const decisions = (orderId: string) => tickets.events('ticket.withdrawal-decided', orderId);

test('a withdrawal voids a ticket not admitted yet: the door refuses it at once and orders hears it is void', async () => {
  const { order, issued } = await tickets.issue();

  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(order)));

  expect(await ticketRow(order.orderId)).toMatchObject({ status: 'cancelled', used_at: null });
  expect(await tickets.scan(issued.qrText)).toMatchObject({
    success: false,
    code: 'cancelled',
    message: 'Ingresso cancelado',
  });
  expect(await decisions(order.orderId)).toEqual([
    {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      userId: order.userId,
      eventId: order.eventId,
      buyer: order.buyer,
      event: order.event,
      ticketId: issued.ticketId,
      outcome: 'cancelled',
      usedAt: null,
    },
  ]);
  expect(await tickets.db('order_cancellations').where({ order_id: order.orderId })).toEqual([
    expect.objectContaining({ reason: 'withdrawal' }),
  ]);
});

test('a ticket the door admitted before the withdrawal reached it stays admitted: orders hears the withdrawal is refused', async () => {
  const { order, issued } = await tickets.issue();
  expect((await tickets.scan(issued.qrText)).code).toBe('valid');
  const admitted = await ticketRow(order.orderId);

  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(order)));

  expect(await ticketRow(order.orderId)).toMatchObject({ status: 'valid', used_at: admitted.used_at });
  expect(await decisions(order.orderId)).toEqual([
    expect.objectContaining({ ticketId: issued.ticketId, outcome: 'admitted', usedAt: admitted.used_at.toISOString() }),
  ]);
  expect(await tickets.db('order_cancellations').where({ order_id: order.orderId })).toEqual([]);
});

test('a withdrawal heard before the ticket was issued: void at once, and the ticket is issued cancelled', async () => {
  const order = orderPaid();
  await tickets.handled(await tickets.emit('order.withdrawal-requested', withdrawalRequested(order)));
  expect(await decisions(order.orderId)).toEqual([expect.objectContaining({ ticketId: null, outcome: 'cancelled' })]);

  await tickets.handled(await tickets.publish(order));
  expect(await ticketRow(order.orderId)).toMatchObject({ status: 'cancelled' });
  expect((await tickets.events('ticket.issued')).filter((event) => event.orderId === order.orderId)).toEqual([]);
});

test('ten withdrawals racing ten scans at the door: each ticket is either admitted (withdrawal refused) or void (scan refused), never both', async () => {
  const issued = await Promise.all(Array.from({ length: 10 }, () => tickets.issue()));

  const outcomes = await Promise.all(
    issued.map(async ({ order, issued: ticket }) => {
      const [scan, withdrawal] = await Promise.all([
        tickets.scan(ticket.qrText),
        tickets.emit('order.withdrawal-requested', withdrawalRequested(order)),
      ]);
      await tickets.handled(withdrawal);
      return { order, scan, row: await ticketRow(order.orderId), decided: await decisions(order.orderId) };
    }),
  );

  for (const { scan, row, decided } of outcomes) {
    expect(decided).toHaveLength(1);
    if (decided[0]!.outcome === 'admitted') {
      expect([scan.code, row.status, decided[0]!.usedAt]).toEqual(['valid', 'valid', row.used_at.toISOString()]);
    } else {
      expect([scan.code, row.status, row.used_at]).toEqual(['cancelled', 'cancelled', null]);
    }
  }
});
