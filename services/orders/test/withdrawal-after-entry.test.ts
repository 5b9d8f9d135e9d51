import { randomUUID } from 'node:crypto';
import { SERVICE_UNAVAILABLE } from '@ticketing/platform';
import { DOORS_OPEN_MINUTES_BEFORE_EVENT, refundMessages } from '@ticketing/proto';
import { ticketCheckedIn } from '../src/domain/ticket-events.ts';
import {
  bought,
  json,
  MINUTE,
  paymentConfirmed,
  startOrders,
  ticketAnswersWithdrawal,
  type Buyer,
  type Harness,
} from './support.ts';

/**
 * No refund after entry: the buyer's withdrawal looks at the ticket's check-ins (from ticket.checked-in) and at the
 * event's current date in the catalog; the administrators' refund stays possible.
 */
let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const withdrawal = (orderId: string, token: string) => h.request('POST', `/api/orders/${orderId}/withdraw`, { token });

/** A paid order of a new buyer for a new event starting at `date`. */
async function paidOrder(date = new Date(Date.now() + 20 * 24 * 60 * MINUTE)) {
  const owner: Buyer = await h.buyer();
  const event = await h.createEvent({ maxAttendees: 50, date: date.toISOString() });
  const { order } = await bought(h, owner, event.id);
  await paymentConfirmed(h, order.id);
  return { id: order.id, owner, eventId: event.id };
}

/** Tickets announcing the order's ticket admitted at the door `at`, handled by orders. */
async function admitted(order: { id: string; eventId: string }, at = new Date()) {
  await h.handled(await checkIn(order, at));
}

const checkIn = (order: { id: string; eventId: string }, at = new Date()) =>
  h.publish('ticket.checked-in', {
    ticketId: randomUUID(),
    orderId: order.id,
    eventId: order.eventId,
    sessionId: order.eventId,
    usedAt: at.toISOString(),
    scannedBy: randomUUID(),
  });

/** Orders recording the ticket's admission, as its ticket.checked-in handler does when the event arrives. */
const recordCheckIn = (order: { id: string; eventId: string }) =>
  h.orders.db.transaction((trx) =>
    ticketCheckedIn(h.orders.logger, trx, {
      ticketId: randomUUID(),
      orderId: order.id,
      eventId: order.eventId,
      sessionId: order.eventId,
      usedAt: new Date().toISOString(),
      scannedBy: randomUUID(),
    }),
  );

/** Moves the event in the catalog, as its organizers do from the back office. */
async function reschedule(eventId: string, date: Date) {
  const response = await fetch(`${h.catalog.url}/api/events/${eventId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ date: date.toISOString() }),
  });
  expect(response.status).toBe(200);
}

async function expectRefused(order: { id: string; owner: Buyer }, status: number, message: string) {
  const response = await withdrawal(order.id, order.owner.token);
  expect(response.status).toBe(status);
  expect(await json(response)).toEqual({ message });
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'paid', refund_reason: null });
  expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
}

test('a ticket admitted at the door (3 h before the start) cannot be withdrawn: 409 saying why; an administrator still refunds it', async () => {
  const order = await paidOrder(new Date(Date.now() + 3 * 60 * MINUTE));
  await admitted(order, new Date());

  await expectRefused(order, 409, refundMessages.withdrawalAfterEntry);
  const { orders } = await json(await h.request('GET', '/api/orders?page=1', { token: order.owner.token }));
  expect(orders.find((listed: { id: string }) => listed.id === order.id)).toMatchObject({ canWithdraw: false });

  // A reset lets the ticket in again, but the entry happened: still no withdrawal.
  await h.handled(
    await h.publish('ticket.reset', {
      ticketId: randomUUID(),
      orderId: order.id,
      resetAt: new Date(Date.now() + 1000).toISOString(),
      resetBy: randomUUID(),
      sessionId: null,
      firstUsedAt: null,
    }),
  );
  await expectRefused(order, 409, refundMessages.withdrawalAfterEntry);

  const refund = await h.request('POST', `/api/admin/orders/${order.id}/refund`, {
    token: h.adminToken,
    body: { reason: 'Atendimento: comprador passou mal e saiu' },
  });
  expect(refund.status).toBe(202);
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'refunded', refund_reason: 'refund' });
});

test('the event date is the catalog’s current one: moved to within the hour, the doors are open; moved later, the stale copy does not refuse', async () => {
  // Sold for a date 20 days away, then brought forward to 30 minutes from now: the doors are open.
  const soon = await paidOrder();
  await reschedule(soon.eventId, new Date(Date.now() + 30 * MINUTE));
  expect((await h.orderRow(soon.id)).event_date.getTime()).toBeGreaterThan(Date.now() + 24 * 60 * MINUTE);
  await expectRefused(soon, 409, refundMessages.withdrawalDoorsOpen);

  // Sold for a date 90 minutes away, then postponed by a week: the order's copy says the doors are open; the catalog wins.
  const postponed = await paidOrder(new Date(Date.now() + 90 * MINUTE));
  await reschedule(postponed.eventId, new Date(Date.now() + 7 * 24 * 60 * MINUTE));
  await h.orders
    .db('orders')
    .where({ id: postponed.id })
    .update({ event_date: new Date(Date.now() + 10 * MINUTE) });
  const response = await withdrawal(postponed.id, postponed.owner.token);
  expect(response.status).toBe(202);
  expect((await h.orderRow(postponed.id)).withdrawal_requested_at).toBeInstanceOf(Date);
});

test(`the doors open ${DOORS_OPEN_MINUTES_BEFORE_EVENT} minutes before the start: withdrawal refused from then on`, async () => {
  const justBefore = await paidOrder(new Date(Date.now() + (DOORS_OPEN_MINUTES_BEFORE_EVENT - 5) * MINUTE));
  await expectRefused(justBefore, 409, refundMessages.withdrawalDoorsOpen);
  const stillClosed = await paidOrder(new Date(Date.now() + (DOORS_OPEN_MINUTES_BEFORE_EVENT + 10) * MINUTE));
  expect((await withdrawal(stillClosed.id, stillClosed.owner.token)).status).toBe(202);
});

test('the catalog not answering: 503, nothing refunded, nothing asked of payments', async () => {
  const order = await paidOrder();
  const blind = await h.replica({ CATALOG_URL: 'http://127.0.0.1:9' });
  try {
    const response = await fetch(`${blind.url}/api/orders/${order.id}/withdraw`, {
      method: 'POST',
      headers: { authorization: `Bearer ${order.owner.token}` },
    });
    expect(response.status).toBe(503);
    expect(await json(response)).toEqual({ message: SERVICE_UNAVAILABLE });
  } finally {
    await blind.close();
  }
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'paid', refund_reason: null });
  expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
});

test('a withdrawal racing a check-in reaching orders: a check-in recorded first refuses it; otherwise tickets decides, and its admission keeps the order paid', async () => {
  const outcomes = { refused: 0, noted: 0 };
  for (let round = 0; round < 12; round++) {
    const order = await paidOrder();
    // Half the rounds send the check-in over the bus; the other half record it the moment the withdrawal is asked
    // (orders' handler of ticket.checked-in, in a transaction of its own): either may reach the order first.
    if (round % 2 === 0) {
      const [answer, event] = await Promise.all([withdrawal(order.id, order.owner.token), checkIn(order)]);
      await h.handled(event);
      await expectConsistent(order, answer);
    } else {
      const [answer] = await Promise.all([withdrawal(order.id, order.owner.token), recordCheckIn(order)]);
      await expectConsistent(order, answer);
    }
  }
  // Both orders of events happened.
  expect(outcomes.refused).toBeGreaterThan(0);
  expect(outcomes.noted).toBeGreaterThan(0);

  async function expectConsistent(order: { id: string }, answer: Response) {
    const row = await h.orderRow(order.id);
    expect(row.first_checked_in_at).toBeInstanceOf(Date);
    if (answer.status === 409) {
      // The check-in was recorded first: the order stays paid, its ticket valid, nothing refunded.
      outcomes.refused++;
      expect(await json(answer)).toEqual({ message: refundMessages.withdrawalAfterEntry });
      expect(row).toMatchObject({ status: 'paid', refund_reason: null });
      expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
      expect(await h.events('order.refunded', order.id)).toEqual([]);
    } else {
      // The withdrawal was noted first: nothing goes back until tickets answers, and as the door admitted the ticket
      // before the withdrawal reached it, tickets answers so: the order stays paid.
      outcomes.noted++;
      expect(answer.status).toBe(202);
      expect(row).toMatchObject({ status: 'paid', refund_reason: null });
      expect(row.withdrawal_requested_at).toBeInstanceOf(Date);
      await ticketAnswersWithdrawal(h, order.id, 'admitted');
      expect(await h.orderRow(order.id)).toMatchObject({
        status: 'paid',
        refund_reason: null,
        withdrawal_requested_at: null,
      });
      expect(h.payments.callsFor(order.id, 'refund')).toEqual([]);
      expect(await h.events('order.refunded', order.id)).toEqual([]);
    }
  }
});
