import { refundMessages, refundReasonLabels, type EventPayload, type EventView } from '@ticketing/proto';
import { paymentsClient } from '../src/clients/payments.ts';
import { sendOwedRefunds } from '../src/index.ts';
import { backOffice } from './back-office-support.ts';
import { bought, json, startOrders, waitFor, type Harness } from './support.ts';

/** An event its organizers cancelled: its orders are cancelled or refunded, once. The retry job is driven by hand. */
let h: Harness;

let office: ReturnType<typeof backOffice>;

beforeAll(async () => {
  h = await startOrders({ env: { ORDER_REFUND_RETRY_MS: String(3_600_000) } });
  office = backOffice(h);
});
afterAll(() => h.stop());

const REASON = 'Palestrante principal indisponível';

function cancellation(event: EventView): EventPayload<'event.cancelled'> {
  return {
    eventId: event.id,
    reason: REASON,
    cancelledAt: new Date().toISOString(),
    event: { title: event.title, date: event.date, location: event.location },
  };
}

const cancelEvent = async (event: EventView) => {
  const sent = await h.publish('event.cancelled', cancellation(event));
  await h.handled(sent);
  return sent;
};

async function pendingOrder(event: EventView): Promise<string> {
  const { order } = await bought(h, await h.buyer(), event.id);
  return order.id;
}

async function paidOrder(event: EventView): Promise<string> {
  const id = await pendingOrder(event);
  await office.pay(id);
  return id;
}

async function courtesyOrder(event: EventView): Promise<string> {
  const id = await office.courtesy(await h.buyer(), event);
  expect(await h.orderRow(id)).toMatchObject({ status: 'paid', amount: '0.00', payment_method: null });
  return id;
}

const timeline = async (orderId: string) =>
  (await h.orders.db('order_timeline').where({ order_id: orderId }).orderBy('id')).map((entry) => [
    entry.kind,
    entry.detail,
  ]);

/** An order as stored, with what happened to it and every event written about it. */
const stateOf = async (orderId: string) => ({
  row: await h.orderRow(orderId),
  timeline: await timeline(orderId),
  events: await h.events(undefined, orderId),
});

const adminRefund = (orderId: string) =>
  h.request('POST', `/api/admin/orders/${orderId}/refund`, {
    token: h.adminToken,
    body: { reason: 'O comprador pediu o dinheiro de volta' },
  });

test('a cancelled event cancels its pending orders, refunds its paid ones through payments and its courtesies at once', async () => {
  const event = await h.createEvent({ maxAttendees: 50 });
  const pending = await pendingOrder(event);
  const paid = await paidOrder(event);
  const courtesy = await courtesyOrder(event);
  const paymentId = (await h.orderRow(pending)).asaas_payment_id;

  await cancelEvent(event);

  // Pending: cancelled, and order.cancelled releases the spot and deletes the charge, as a buyer's cancel does.
  expect(await h.orderRow(pending)).toMatchObject({ status: 'cancelled', refund_reason: null });
  expect(await h.events('order.cancelled', pending)).toEqual([
    expect.objectContaining({ orderId: pending, eventId: event.id, paymentId }),
  ]);
  expect(await timeline(pending)).toContainEqual(['cancelled', null]);

  // Courtesy: nothing to give back, so refunded now, with order.refunded at R$ 0,00 and no call to payments.
  expect(await h.orderRow(courtesy)).toMatchObject({
    status: 'refunded',
    refund_reason: 'event_cancelled',
    refund_owed_since: null,
  });
  expect(await h.events('order.refunded', courtesy)).toEqual([
    expect.objectContaining({ orderId: courtesy, reason: 'event_cancelled', amount: '0.00', eventId: event.id }),
  ]);
  expect(h.payments.callsFor(courtesy)).toEqual([]);
  expect((await timeline(courtesy)).at(-1)).toEqual(['refunded', refundReasonLabels.event_cancelled]);

  // Paid: refunded and owed with the event's reason; payments is asked once it commits, then order.refunded.
  await waitFor(async () => (await h.events('order.refunded', paid)).length === 1);
  expect(await h.orderRow(paid)).toMatchObject({
    status: 'refunded',
    refund_reason: 'event_cancelled',
    refund_note: REASON,
    refund_requested_by: null,
    refund_requested_at: expect.any(Date),
    refunded_at: expect.any(Date),
    refund_owed_since: null,
  });
  expect(h.payments.callsFor(paid, 'refund')).toHaveLength(1);
  expect(await h.events('order.refunded', paid)).toEqual([
    expect.objectContaining({ orderId: paid, reason: 'event_cancelled', amount: '155.00', eventId: event.id }),
  ]);
  expect((await timeline(paid)).slice(-2)).toEqual([
    ['refund_requested', REASON],
    ['refunded', refundReasonLabels.event_cancelled],
  ]);
  expect(await h.events('order.cancelled', paid)).toEqual([]);
});

test('orders already refunded, cancelled or expired are left as they are', async () => {
  const event = await h.createEvent({ maxAttendees: 50 });
  const refunded = await paidOrder(event);
  expect((await adminRefund(refunded)).status).toBe(202);
  const who = await h.buyer();
  const { order } = await bought(h, who, event.id);
  expect((await h.request('DELETE', `/api/orders/${order.id}/cancel`, { token: who.token })).status).toBeLessThan(300);
  const expired = await pendingOrder(event);
  await h.orders.db('orders').where({ id: expired }).update({ status: 'expired', expired_at: new Date() });
  const ids = [refunded, order.id, expired];
  const before = await Promise.all(ids.map(stateOf));

  await cancelEvent(event);

  expect(await Promise.all(ids.map(stateOf))).toEqual(before);
  expect(h.payments.callsFor(refunded, 'refund')).toHaveLength(1);
});

test('the cancellation heard again changes nothing more', async () => {
  const event = await h.createEvent({ maxAttendees: 50 });
  const pending = await pendingOrder(event);
  const paid = await paidOrder(event);
  const courtesy = await courtesyOrder(event);
  await cancelEvent(event);
  await waitFor(async () => (await h.events('order.refunded', paid)).length === 1);
  const ids = [pending, paid, courtesy];
  const after = await Promise.all(ids.map(stateOf));

  await cancelEvent(event);

  expect(await Promise.all(ids.map(stateOf))).toEqual(after);
  expect(h.payments.callsFor(paid, 'refund')).toHaveLength(1);
});

test('a refund payments cannot do yet stays owed, and the retry job finishes it with the event reason', async () => {
  const event = await h.createEvent({ maxAttendees: 50 });
  const paid = await paidOrder(event);
  h.payments.behaviour.refund = 'down';
  try {
    await cancelEvent(event);
    await waitFor(() => h.payments.callsFor(paid, 'refund').length === 1);
    await waitFor(() => h.lines('refund not done yet; retrying later').some((line) => line.orderId === paid));
    expect(await h.orderRow(paid)).toMatchObject({
      status: 'refunded',
      refund_reason: 'event_cancelled',
      refund_owed_since: expect.any(Date),
    });
    expect(await h.events('order.refunded', paid)).toEqual([]);
  } finally {
    h.payments.behaviour.refund = 'ok';
  }

  const deps = {
    db: h.orders.db,
    outbox: h.orders.outbox,
    logger: h.orders.logger,
    payments: paymentsClient(h.payments.url, 5000, h.orders),
  };
  expect(await sendOwedRefunds(deps)).toContain(paid);
  expect(await h.events('order.refunded', paid)).toEqual([
    expect.objectContaining({ orderId: paid, reason: 'event_cancelled', amount: '155.00' }),
  ]);
});

test('administrators refunding orders while their event is cancelled: each order is refunded once', async () => {
  const event = await h.createEvent({ maxAttendees: 50 });
  const paid: string[] = [];
  for (let i = 0; i < 4; i++) paid.push(await paidOrder(event));

  const [, ...refunds] = await Promise.all([cancelEvent(event), ...paid.map(adminRefund)]);

  for (const [i, id] of paid.entries()) {
    const refund = refunds[i]!;
    expect([202, 409]).toContain(refund.status);
    if (refund.status === 409) expect(await json(refund)).toEqual({ message: refundMessages.alreadyRefunded });
    await waitFor(async () => (await h.events('order.refunded', id)).length === 1);
    const row = await h.orderRow(id);
    expect(row).toMatchObject({
      status: 'refunded',
      refund_reason: refund.status === 202 ? 'refund' : 'event_cancelled',
      refund_owed_since: null,
    });
    expect(h.payments.callsFor(id, 'refund')).toHaveLength(1);
    expect(await h.events('order.refunded', id)).toEqual([
      expect.objectContaining({ orderId: id, reason: row.refund_reason }),
    ]);
  }
});
