import { randomUUID } from 'node:crypto';
import { serviceAuthorization } from '@ticketing/testkit';
import { paymentsClient } from '../src/clients/payments.ts';
import { expireOverdueOrders, sendOwedRefunds } from '../src/index.ts';
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

const refundedByProvider = async (orderId: string, reason: 'refund' | 'chargeback') =>
  h.publish('payment.refunded', {
    orderId,
    paymentId: (await h.orderRow(orderId)).asaas_payment_id,
    providerStatus: reason === 'refund' ? 'REFUNDED' : 'CHARGEBACK_REQUESTED',
    reason,
  });

const paymentsDeps = () => ({
  db: h.orders.db,
  outbox: h.orders.outbox,
  logger: h.orders.logger,
  payments: paymentsClient(h.payments.url, 5000, h.orders),
});

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
      buyer: { name: 'Carlos Eduardo Lima', email: who.email, cpf: who.cpf },
      event: { title: event.title, date: event.date, location: event.location },
      courtesyLinkId: null,
      paymentMethod: 'pix',
      items: [
        {
          index: 0,
          ticketTypeId: event.ticketTypes[0]?.id ?? event.id,
          typeName: 'Ingresso',
          lotName: null,
          price: '150.00',
          requiresDocument: false,
          holder: { name: 'Carlos Eduardo Lima', email: who.email, cpf: who.cpf },
        },
      ],
      installments: 1,
      discountAmount: '0.00',
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
  await fetch(`${h.catalog.url}/internal/events/${event.id}/holds/order:${order.id}`, {
    method: 'DELETE',
    headers: { authorization: await serviceAuthorization('orders', 'catalog') },
  });
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

/** An order paid late after it was cancelled, when someone else has taken its only spot meanwhile. */
async function paidLateWithNoSpot() {
  const event = await h.createEvent({ maxAttendees: 1 });
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);
  expect((await h.request('DELETE', `/api/orders/${order.id}/cancel`, { token: who.token })).status).toBe(200);
  await fetch(`${h.catalog.url}/internal/events/${event.id}/holds/order:${order.id}`, {
    method: 'DELETE',
    headers: { authorization: await serviceAuthorization('orders', 'catalog') },
  });
  // Someone else takes the only spot.
  await bought(h, await h.buyer(), event.id);
  return { event, who, order };
}

test('a late payment with no spot left is refunded: status refunded, refund asked after commit, order.refunded', async () => {
  const { event, who, order } = await paidLateWithNoSpot();

  await confirmed(order.id);
  const [refunded] = await waitFor(async () => {
    const found = await h.events('order.refunded', order.id);
    return found.length > 0 && found;
  });
  expect(refunded).toEqual({
    type: 'order.refunded',
    orderId: order.id,
    orderNumber: order.orderNumber,
    userId: who.id,
    eventId: event.id,
    reason: 'late_payment',
    amount: '155.00',
    buyer: { name: who.name, email: who.email },
    event: { title: event.title, date: event.date, location: event.location },
  });
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(1);
  expect(await h.orderRow(order.id)).toMatchObject({
    status: 'refunded',
    refund_reason: 'late_payment',
    refund_owed_since: null,
    refunded_at: expect.any(Date),
  });
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(h.lines('order refunded')).toContainEqual(
    expect.objectContaining({ orderId: order.id, previousStatus: 'cancelled', reason: 'late_payment' }),
  );

  // Confirmed again: already refunded, nothing more.
  await confirmed(order.id);
  await untilLogged('payment confirmation ignored', order.id);
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
});

test('a late payment refund that payments cannot do yet stays owed and is asked again until it is done', async () => {
  const { order } = await paidLateWithNoSpot();
  h.payments.behaviour.refund = 'down';
  try {
    await confirmed(order.id);
    // The event is handled (the order is refunded, the debt recorded), whatever payments says.
    await waitFor(async () => (await statusOf(order.id)) === 'refunded');
    await untilLogged('refund not done yet; retrying later', order.id);
    expect(await h.orderRow(order.id)).toMatchObject({
      refund_reason: 'late_payment',
      refund_owed_since: expect.any(Date),
    });
    expect(await h.events('order.refunded', order.id)).toEqual([]);
    expect(await sendOwedRefunds(paymentsDeps())).not.toContain(order.id);
  } finally {
    h.payments.behaviour.refund = 'ok';
  }
  expect(h.payments.callsFor(order.id, 'refund').length).toBeGreaterThanOrEqual(2);

  await sendOwedRefunds(paymentsDeps());
  await waitFor(async () => (await h.orderRow(order.id)).refund_owed_since === null);
  expect(await h.events('order.refunded', order.id)).toEqual([
    expect.objectContaining({ orderId: order.id, reason: 'late_payment' }),
  ]);
  // Another round finds nothing owed: no further call, no second event.
  const calls = h.payments.callsFor(order.id, 'refund').length;
  await sendOwedRefunds(paymentsDeps());
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(calls);
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
  expect(h.lines('event dead-lettered')).toEqual([]);
});

test('payments giving an owed late payment back on its own settles it: one order.refunded, no more calls', async () => {
  const { order } = await paidLateWithNoSpot();
  h.payments.behaviour.refund = 'down';
  try {
    await confirmed(order.id);
    await untilLogged('refund not done yet; retrying later', order.id);
    await refundedByProvider(order.id, 'refund');
    await waitFor(async () => (await h.orderRow(order.id)).refund_owed_since === null);
  } finally {
    h.payments.behaviour.refund = 'ok';
  }
  const calls = h.payments.callsFor(order.id, 'refund').length;
  await sendOwedRefunds(paymentsDeps());
  expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(calls);
  expect(await h.events('order.refunded', order.id)).toEqual([
    expect.objectContaining({ orderId: order.id, reason: 'late_payment' }),
  ]);
  expect(h.lines('owed refund settled')).toContainEqual(expect.objectContaining({ orderId: order.id }));
});

test.each(['refund', 'chargeback'] as const)(
  'payment.refunded (%s) turns a paid order refunded with order.refunded; repeats and later payments change nothing',
  async (reason) => {
    const event = await h.createEvent({ maxAttendees: 3 });
    const who = await h.buyer();
    const { order } = await bought(h, who, event.id);
    await confirmed(order.id);
    await waitFor(async () => (await statusOf(order.id)) === 'paid');

    await refundedByProvider(order.id, reason);
    await waitFor(async () => (await statusOf(order.id)) === 'refunded');
    expect(await h.orderRow(order.id)).toMatchObject({
      refund_reason: reason,
      refund_owed_since: null,
      refunded_at: expect.any(Date),
      paid_at: expect.any(Date),
      amount: '155.00',
    });
    expect(await h.events('order.refunded', order.id)).toEqual([
      {
        type: 'order.refunded',
        orderId: order.id,
        orderNumber: order.orderNumber,
        userId: who.id,
        eventId: event.id,
        reason,
        amount: '155.00',
        buyer: { name: who.name, email: who.email },
        event: { title: event.title, date: event.date, location: event.location },
      },
    ]);
    expect(h.lines('order refunded')).toContainEqual(
      expect.objectContaining({ orderId: order.id, previousStatus: 'paid', reason }),
    );

    // Delivered again, the other reason, a confirmation and a failure: all already settled.
    await refundedByProvider(order.id, reason);
    await refundedByProvider(order.id, reason === 'refund' ? 'chargeback' : 'refund');
    await confirmed(order.id);
    await h.publish('payment.failed', { orderId: order.id, paymentId: order.asaasPaymentId!, providerStatus: 'X' });
    await untilLogged('payment refund ignored', order.id, 2);
    await untilLogged('payment confirmation ignored', order.id);
    await untilLogged('payment failure ignored', order.id);
    expect(await h.orderRow(order.id)).toMatchObject({ status: 'refunded', refund_reason: reason });
    expect(await h.events('order.refunded', order.id)).toHaveLength(1);
    expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
  },
);

test('payment.refunded on a pending order cancels it; a confirmation of that charge arriving later never pays it', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);

  await refundedByProvider(order.id, 'chargeback');
  await waitFor(async () => (await statusOf(order.id)) === 'cancelled');
  expect(await h.orderRow(order.id)).toMatchObject({ refund_reason: 'chargeback', cancelled_at: expect.any(Date) });
  expect(await h.events('order.cancelled', order.id)).toEqual([
    { type: 'order.cancelled', orderId: order.id, userId: who.id, eventId: event.id, paymentId: order.asaasPaymentId },
  ]);
  expect(h.lines('order cancelled')).toContainEqual(
    expect.objectContaining({ orderId: order.id, reason: 'payment_refunded' }),
  );

  await confirmed(order.id);
  await untilLogged('payment confirmation ignored', order.id);
  expect(await statusOf(order.id)).toBe('cancelled');
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(await h.events('order.refunded', order.id)).toEqual([]);
  expect((await h.holds(event.id)).map((hold) => hold.id)).not.toContain(`order:${order.id}:late`);
  expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
});

test('payment.refunded on an expired order is kept, so its late confirmation neither takes a spot nor pays it', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const { order } = await bought(h, await h.buyer(), event.id);
  await h.orders
    .db('orders')
    .where({ id: order.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  await expireOverdueOrders({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger });

  await refundedByProvider(order.id, 'refund');
  await waitFor(async () => (await h.orderRow(order.id)).refund_reason === 'refund');
  expect(await statusOf(order.id)).toBe('expired');
  expect(h.lines('payment refund recorded')).toContainEqual(expect.objectContaining({ orderId: order.id }));

  await confirmed(order.id);
  await untilLogged('payment confirmation ignored', order.id);
  expect(await statusOf(order.id)).toBe('expired');
  expect((await h.holds(event.id)).map((hold) => hold.id)).toEqual([`order:${order.id}`]);
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(await h.events('order.refunded', order.id)).toEqual([]);
});

test('payment.refunded for another charge of the order is ignored', async () => {
  const { order } = await bought(h, await h.buyer(), (await h.createEvent()).id);
  await confirmed(order.id);
  await waitFor(async () => (await statusOf(order.id)) === 'paid');
  await h.publish('payment.refunded', {
    orderId: order.id,
    paymentId: 'pay_outro',
    providerStatus: 'REFUNDED',
    reason: 'refund',
  });
  await untilLogged('payment refund ignored', order.id);
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'paid', refund_reason: null });
  expect(h.lines('payment refund ignored')).toContainEqual(
    expect.objectContaining({ orderId: order.id, otherCharge: true }),
  );
});

test('payment.refunded and payment.confirmed out of order, each twice, end with one outcome and no ticket to issue', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const { order } = await bought(h, await h.buyer(), event.id);
  // The refund overtakes the confirmation of the same charge, and each comes twice.
  await refundedByProvider(order.id, 'refund');
  await refundedByProvider(order.id, 'refund');
  await untilLogged('payment refund ignored', order.id);
  await confirmed(order.id);
  await confirmed(order.id);
  await untilLogged('payment confirmation ignored', order.id, 2);

  expect(await h.orderRow(order.id)).toMatchObject({ status: 'cancelled', refund_reason: 'refund' });
  expect(await h.events('order.cancelled', order.id)).toHaveLength(1);
  expect(await h.events('order.paid', order.id)).toEqual([]);
  expect(await h.events('order.refunded', order.id)).toEqual([]);
  expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
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
    sessionId: event.id,
    usedAt,
    scannedBy: randomUUID(),
  });
  await waitFor(async () => (await view()).qrCodeUsed === true);
  expect(await view()).toMatchObject({ qrCodeUsed: true, qrCodeUsedAt: usedAt });

  const resetAt = new Date(Date.parse(usedAt) + 1000).toISOString();
  await h.publish('ticket.reset', {
    ticketId,
    orderId: order.id,
    resetBy: randomUUID(),
    resetAt,
    sessionId: null,
    firstUsedAt: null,
  });
  await waitFor(async () => (await view()).qrCodeUsed === false);
  expect(await view()).toMatchObject({ qrCodeUsed: false, qrCodeUsedAt: null, qrCodeData });

  // A check-in older than the reset, delivered late, does not mark it used again.
  await h.publish('ticket.checked-in', {
    ticketId,
    orderId: order.id,
    eventId: event.id,
    sessionId: event.id,
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

  // Admitted to two sessions, one of them reset: the ticket was still used (the other admission stands).
  const secondDay = randomUUID();
  const dayTwoAt = new Date(Date.parse(resetAt) + 1000).toISOString();
  await h.publish('ticket.checked-in', {
    ticketId,
    orderId: order.id,
    eventId: event.id,
    sessionId: secondDay,
    usedAt: dayTwoAt,
    scannedBy: randomUUID(),
  });
  await waitFor(async () => (await view()).qrCodeUsed === true);
  await h.publish('ticket.reset', {
    ticketId,
    orderId: order.id,
    resetBy: randomUUID(),
    resetAt: new Date(Date.parse(dayTwoAt) + 1000).toISOString(),
    sessionId: event.id,
    firstUsedAt: dayTwoAt,
  });
  await waitFor(() => h.lines('ticket reset').filter((line) => line.orderId === order.id).length === 2);
  expect(await view()).toMatchObject({ qrCodeUsed: true, qrCodeUsedAt: dayTwoAt });
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
