import { ordersMessages, PAYMENT_WINDOWS } from '@ticketing/proto';
import { addBusinessDays, endOfLocalDay, expireOverdueOrders, localDay, ordersMigrations } from '../src/index.ts';
import { bought, json, MINUTE, startOrders, type Harness } from './support.ts';

/** A pending order never holds its spot past the event's start: payment windows end by it, boletos clear before it. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const HOUR = 60 * MINUTE;
const inMs = (ms: number) => new Date(Date.now() + ms);
const sweepDeps = () => ({ db: h.orders.db, outbox: h.orders.outbox, logger: h.orders.logger });

test('a boleto for an event 3 h away is refused with 422 saying why: no order, no spot held, no charge', async () => {
  const event = await h.createEvent({ maxAttendees: 10, date: inMs(3 * HOUR).toISOString() });
  const buyer = await h.buyer();

  const response = await h.buy(buyer, { eventId: event.id, paymentMethod: 'boleto' });

  expect(response.status).toBe(422);
  expect(await json(response)).toEqual({ message: ordersMessages.boletoTooLate });
  expect(await h.ordersOf(buyer.id)).toEqual([]);
  expect((await h.holds(event.id)).filter((hold: { released_at: Date | null }) => !hold.released_at)).toEqual([]);
  expect(
    h.payments.calls.filter((call) => call.action === 'charge' && (call.body as any)?.customer?.userId === buyer.id),
  ).toEqual([]);

  // PIX is still on offer for the same event.
  expect((await h.buy(buyer, { eventId: event.id, paymentMethod: 'pix' })).status).toBe(201);
});

test('a PIX order for an event 30 min away gets a window ending at the start, and the sweep releases it by then', async () => {
  const startsAt = inMs(30 * MINUTE);
  const event = await h.createEvent({ maxAttendees: 10, date: startsAt.toISOString() });
  const buyer = await h.buyer();

  const { order, payment } = await bought(h, buyer, event.id, 'pix');

  const expiresAt = new Date(payment.expiresAt as string);
  expect(expiresAt.getTime()).toBeLessThanOrEqual(new Date(event.date).getTime());
  expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 25 * MINUTE);
  expect((await h.orderRow(order.id)).expires_at).toEqual(expiresAt);
  expect(await h.events('order.created', order.id)).toEqual([
    expect.objectContaining({ expiresAt: expiresAt.toISOString() }),
  ]);

  // Before the start nothing is swept; at the start the order is expired and order.expired gives the spot back.
  expect(await expireOverdueOrders(sweepDeps(), { now: new Date(expiresAt.getTime() - 1000) })).not.toContain(order.id);
  expect(await expireOverdueOrders(sweepDeps(), { now: new Date(event.date) })).toContain(order.id);
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'expired' });
  expect(await h.events('order.expired', order.id)).toHaveLength(1);
});

test('a card order for an event 2 h away is held until the start, not 24 h', async () => {
  const event = await h.createEvent({ maxAttendees: 10, date: inMs(2 * HOUR).toISOString() });
  const { payment } = await bought(h, await h.buyer(), event.id, 'credit_card');
  expect(new Date(payment.expiresAt as string)).toEqual(new Date(event.date));
});

test('a boleto for an event 10 days away is due early enough to clear before it, and the order ends by its due day', async () => {
  const event = await h.createEvent({ maxAttendees: 10, date: inMs(10 * 24 * HOUR).toISOString() });
  const { order, payment } = await bought(h, await h.buyer(), event.id, 'boleto');

  const charge = h.payments.callsFor(order.id, 'charge')[0]!.body as { dueDate: string };
  const cleared = endOfLocalDay(addBusinessDays(charge.dueDate, PAYMENT_WINDOWS.boletoSettlementBusinessDays));
  expect(cleared.getTime()).toBeLessThanOrEqual(new Date(event.date).getTime());
  // The latest such day: one business day later would clear too late (or pass the usual 7 business days).
  const later = addBusinessDays(charge.dueDate, 1);
  const laterClears = endOfLocalDay(addBusinessDays(later, PAYMENT_WINDOWS.boletoSettlementBusinessDays));
  expect(
    laterClears.getTime() > new Date(event.date).getTime() ||
      later > addBusinessDays(localDay(new Date()), PAYMENT_WINDOWS.boletoBusinessDays),
  ).toBe(true);
  expect(new Date(payment.expiresAt as string)).toEqual(endOfLocalDay(charge.dueDate));
});

test('minutes before the start there is no time to pay: 409 saying so, nothing held', async () => {
  const event = await h.createEvent({ maxAttendees: 10, date: inMs(3 * MINUTE).toISOString() });
  const buyer = await h.buyer();
  for (const paymentMethod of ['pix', 'credit_card']) {
    const response = await h.buy(buyer, { eventId: event.id, paymentMethod });
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ message: ordersMessages.noTimeToPay });
  }
  expect(await h.ordersOf(buyer.id)).toEqual([]);
});

test('pending orders made before this rule are brought to end by their event’s start', async () => {
  const event = await h.createEvent({ maxAttendees: 10, date: inMs(2 * 24 * HOUR).toISOString() });
  const { order } = await bought(h, await h.buyer(), event.id, 'pix');
  const overlong = inMs(11 * 24 * HOUR);
  await h.orders.db('orders').where({ id: order.id }).update({ expires_at: overlong });

  await ordersMigrations.find((migration) => migration.name === '0008_holds_end_by_the_event')!.up(h.orders.db);

  expect((await h.orderRow(order.id)).expires_at).toEqual(new Date(event.date));
});
