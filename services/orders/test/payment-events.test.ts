import { randomUUID } from 'node:crypto';
import { expireOverdueOrders } from '../src/index.ts';
import { bought, startOrders, waitFor, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

async function confirmed(orderId: string, paidAt = new Date().toISOString()) {
  const row = await h.orderRow(orderId);
  return h.publish('payment.confirmed', {
    orderId,
    paymentId: row.asaas_payment_id,
    providerStatus: 'RECEIVED',
    value: row.amount,
    paidAt,
  });
}

const statusOf = async (orderId: string) => (await h.orderRow(orderId)).status as string;
const untilLogged = (msg: string, orderId: string, count = 1) =>
  waitFor(() => h.lines(msg).filter((line) => line.orderId === orderId).length >= count);

test('payment.confirmed turns a pending order paid and writes order.paid with the buyer and event', async () => {
  const event = await h.createEvent({ maxAttendees: 5 });
  const who = await h.buyer({ name: 'Carlos Eduardo Lima' });
  const { order } = await bought(h, who, event.id);
  const paidAt = '2030-01-02T13:14:15.000Z';

  await confirmed(order.id, paidAt);
  await waitFor(async () => (await statusOf(order.id)) === 'paid');

  const row = await h.orderRow(order.id);
  expect(row.paid_at.toISOString()).toBe(paidAt);
  expect(await h.events('order.paid', order.id)).toEqual([
    {
      type: 'order.paid',
      orderId: order.id,
      orderNumber: order.orderNumber,
      userId: who.id,
      eventId: event.id,
      amount: '155.00',
      paidAt,
      buyer: { name: 'Carlos Eduardo Lima', email: who.email },
      event: { title: event.title, date: event.date, location: event.location },
      courtesyLinkId: null,
    },
  ]);
  expect(h.lines('order paid')).toContainEqual(expect.objectContaining({ orderId: order.id, late: false }));
  const listed = await json(await h.request('GET', '/api/orders', { token: who.token }));
  expect(listed.orders[0]).toMatchObject({ id: order.id, status: 'paid' });
  // The spot stays held: paid is for good.
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});

test('a paid order never moves back: a second confirmation, a late failure or overdue change nothing', async () => {
  const { order } = await bought(h, await h.buyer(), (await h.createEvent()).id);
  await confirmed(order.id);
  await waitFor(async () => (await statusOf(order.id)) === 'paid');
  const paidRow = await h.orderRow(order.id);

  await confirmed(order.id);
  await h.publish('payment.failed', {
    orderId: order.id,
    paymentId: order.asaasPaymentId!,
    providerStatus: 'REFUNDED',
  });
  await h.publish('payment.overdue', { orderId: order.id, paymentId: order.asaasPaymentId! });
  await untilLogged('payment confirmation ignored', order.id);
  await untilLogged('payment failure ignored', order.id);
  await untilLogged('payment overdue ignored', order.id);

  expect(await h.orderRow(order.id)).toEqual(paidRow);
  expect(await h.events('order.paid', order.id)).toHaveLength(1);
  expect(await h.events('order.cancelled', order.id)).toEqual([]);
  expect(h.lines('payment failure ignored')).toContainEqual(
    expect.objectContaining({ orderId: order.id, status: 'paid', providerStatus: 'REFUNDED' }),
  );
});

test('payment.failed on a pending order cancels it with order.cancelled; one for another charge is ignored', async () => {
  const event = await h.createEvent();
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);

  await h.publish('payment.failed', { orderId: order.id, paymentId: 'pay_outro', providerStatus: 'DELETED' });
  await untilLogged('payment failure ignored', order.id);
  expect(await statusOf(order.id)).toBe('pending');

  await h.publish('payment.failed', {
    orderId: order.id,
    paymentId: order.asaasPaymentId!,
    providerStatus: 'REPROVED',
  });
  await waitFor(async () => (await statusOf(order.id)) === 'cancelled');
  expect(await h.events('order.cancelled', order.id)).toEqual([
    { type: 'order.cancelled', orderId: order.id, userId: who.id, eventId: event.id, paymentId: order.asaasPaymentId },
  ]);
  expect(h.lines('order cancelled')).toContainEqual(
    expect.objectContaining({ orderId: order.id, reason: 'payment_failed' }),
  );
});

test('a late payment for an expired order with a spot free takes one again and is paid', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const { order } = await bought(h, await h.buyer(), event.id);
  await h.orders
    .db('orders')
    .where({ id: order.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  await expireOverdueOrders({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger });
  expect(await statusOf(order.id)).toBe('expired');
  // The catalog releases the spot when it reads order.expired.
  await fetch(`${h.catalog.url}/internal/events/${event.id}/holds/order:${order.id}`, { method: 'DELETE' });
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });

  await confirmed(order.id);
  await waitFor(async () => (await statusOf(order.id)) === 'paid');
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect((await h.holds(event.id)).map((hold) => [hold.id, hold.released_at === null])).toEqual([
    [`order:${order.id}`, false],
    [`order:${order.id}:late`, true],
  ]);
  expect(await h.events('order.paid', order.id)).toHaveLength(1);
  expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
  expect(h.lines('order paid')).toContainEqual(expect.objectContaining({ orderId: order.id, late: true }));
});

test('a late payment with no spot left is refunded: refund asked, status refunded, order.refunded written', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);
  expect((await h.request('DELETE', `/api/orders/${order.id}/cancel`, { token: who.token })).status).toBe(200);
  await fetch(`${h.catalog.url}/internal/events/${event.id}/holds/order:${order.id}`, { method: 'DELETE' });
  // Someone else takes the only spot.
  await bought(h, await h.buyer(), event.id);

  await confirmed(order.id);
  await waitFor(async () => (await statusOf(order.id)) === 'refunded');
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(1);
  expect((await h.orderRow(order.id)).refunded_at).toBeInstanceOf(Date);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect(await h.events('order.refunded', order.id)).toEqual([
    {
      type: 'order.refunded',
      orderId: order.id,
      orderNumber: order.orderNumber,
      userId: who.id,
      amount: '155.00',
      buyer: { name: who.name, email: who.email },
      event: { title: event.title, date: event.date, location: event.location },
    },
  ]);
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(h.lines('order refunded')).toContainEqual(
    expect.objectContaining({ orderId: order.id, previousStatus: 'cancelled' }),
  );

  // Confirmed again: already refunded, nothing more.
  await confirmed(order.id);
  await untilLogged('payment confirmation ignored', order.id);
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
});

test("ticket events fill in the buyer's view: the QR code, then used at the door, then reset", async () => {
  const event = await h.createEvent();
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);
  await confirmed(order.id);
  await waitFor(async () => (await statusOf(order.id)) === 'paid');
  const ticketId = randomUUID();
  const qrCodeData =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const view = async () =>
    ((await json(await h.request('GET', '/api/orders', { token: who.token }))).orders as Record<string, unknown>[])[0]!;

  await h.publish('ticket.issued', {
    ticketId,
    orderId: order.id,
    orderNumber: order.orderNumber,
    userId: who.id,
    eventId: event.id,
    qrText: 'assinado',
    qrCodeData,
    buyer: { name: who.name, email: who.email },
    event: { title: event.title, date: event.date, location: event.location },
  });
  await waitFor(async () => (await view()).qrCodeData === qrCodeData);

  const usedAt = new Date().toISOString();
  await h.publish('ticket.checked-in', {
    ticketId,
    orderId: order.id,
    eventId: event.id,
    usedAt,
    scannedBy: randomUUID(),
  });
  await waitFor(async () => (await view()).qrCodeUsed === true);
  expect(await view()).toMatchObject({ qrCodeUsed: true, qrCodeUsedAt: usedAt });

  const resetAt = new Date(Date.parse(usedAt) + 1000).toISOString();
  await h.publish('ticket.reset', { ticketId, orderId: order.id, resetBy: randomUUID(), resetAt });
  await waitFor(async () => (await view()).qrCodeUsed === false);
  expect(await view()).toMatchObject({ qrCodeUsed: false, qrCodeUsedAt: null, qrCodeData });

  // A check-in older than the reset, delivered late, does not mark it used again.
  await h.publish('ticket.checked-in', {
    ticketId,
    orderId: order.id,
    eventId: event.id,
    usedAt,
    scannedBy: randomUUID(),
  });
  await waitFor(() => h.lines('ticket used').filter((line) => line.orderId === order.id).length === 2);
  expect(
    h
      .lines('ticket used')
      .filter((line) => line.orderId === order.id)
      .map((line) => line.changed),
  ).toEqual([true, false]);
  expect(await view()).toMatchObject({ qrCodeUsed: false });
});

test('events about orders this service does not know are ignored with a warning', async () => {
  const orderId = randomUUID();
  await h.publish('payment.confirmed', {
    orderId,
    paymentId: 'pay_x',
    providerStatus: 'RECEIVED',
    value: '10.00',
    paidAt: new Date().toISOString(),
  });
  await waitFor(() => h.lines('event for an unknown order ignored').some((line) => line.orderId === orderId));
  expect(await h.events(undefined, orderId)).toEqual([]);
});
