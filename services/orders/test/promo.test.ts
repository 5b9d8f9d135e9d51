import { bought, startOrders, waitFor, type Buyer, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const INVALID_PROMO = { message: 'Este código promocional não é válido para este evento.' };
const UNAVAILABLE = { message: 'Serviço temporariamente indisponível. Tente novamente em instantes.' };

/** The orders a use of the code was asked for, oldest first: the only trace of an order that was removed. */
const takenFor = (code: string) =>
  h.courtesy.calls.filter((call) => call.action === 'take' && call.code === code).map((call) => call.orderId!);

const buyWith = (who: Buyer, eventId: string, code: string, paymentMethod = 'pix') =>
  h.buy(who, { eventId, paymentMethod, promoCode: code });

test('a promotional code: its price plus R$ 5,00 is charged, the order keeps the link, and one use is taken for it', async () => {
  const event = await h.createEvent({ price: '150.00', maxAttendees: 10 });
  const link = h.courtesy.addLink({ eventId: event.id, overridePrice: '80.00', ticketCount: 2 });
  const who = await h.buyer();

  const response = await buyWith(who, event.id, link.code.toLowerCase());
  expect(response.status).toBe(201);
  const { order } = await json(response);
  expect(order).toMatchObject({ status: 'pending', amount: '85.00', paymentMethod: 'pix' });

  expect(await h.orderRow(order.id)).toMatchObject({
    amount: '85.00',
    courtesy_link_id: link.id,
    courtesy_attendee_id: null,
    status: 'pending',
    asaas_payment_id: order.asaasPaymentId,
  });
  expect(h.payments.charges.get(order.id)!.request).toMatchObject({ amount: '85.00', method: 'pix' });
  expect(h.courtesy.calls.filter((call) => call.code === link.code)).toEqual([
    { action: 'quote', code: link.code, eventId: event.id },
    { action: 'take', orderId: order.id, code: link.code, eventId: event.id },
  ]);
  expect(h.courtesy.usesOf(link.id)).toEqual([order.id]);
  expect(await h.holds(event.id)).toEqual([expect.objectContaining({ id: `order:${order.id}`, released_at: null })]);
  expect(await h.events('order.created', order.id)).toEqual([expect.objectContaining({ amount: '85.00' })]);

  // Paid, the order says which link it came from.
  await h.publish('payment.confirmed', {
    orderId: order.id,
    paymentId: order.asaasPaymentId,
    providerStatus: 'RECEIVED',
    value: '85.00',
    paidAt: new Date().toISOString(),
  });
  await waitFor(async () => (await h.events('order.paid', order.id)).length === 1);
  expect(await h.events('order.paid', order.id)).toEqual([
    expect.objectContaining({ amount: '85.00', courtesyLinkId: link.id }),
  ]);
});

test('a code that is unknown, of another event, inactive or used up is 400: no order, no hold, no use taken', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const other = await h.createEvent();
  const ofOther = h.courtesy.addLink({ eventId: other.id });
  const inactive = h.courtesy.addLink({ eventId: event.id, isActive: false });
  const usedUp = h.courtesy.addLink({ eventId: event.id, ticketCount: 1 });
  await buyWith(await h.buyer(), event.id, usedUp.code);
  const who = await h.buyer();

  for (const code of ['CDPI99999XYZ', ofOther.code, inactive.code, usedUp.code]) {
    const response = await buyWith(who, event.id, code);
    expect({ code, status: response.status, body: await json(response) }).toEqual({
      code,
      status: 400,
      body: INVALID_PROMO,
    });
  }
  expect(await h.ordersOf(who.id)).toEqual([]);
  expect(await h.holds(event.id)).toHaveLength(1);
  expect(takenFor(usedUp.code)).toHaveLength(1);
  for (const link of [ofOther, inactive]) expect(takenFor(link.code)).toEqual([]);
});

test("the last use taken by someone else between the quote and the take: 409 with courtesy's message, nothing left", async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const link = h.courtesy.addLink({ eventId: event.id, ticketCount: 1 });
  const late = await h.buyer();
  const rival = await h.buyer();
  let rivalResponse: Response | undefined;
  h.courtesy.hooks.beforeTake = async () => {
    h.courtesy.hooks.beforeTake = undefined;
    rivalResponse = await buyWith(rival, event.id, link.code);
  };

  const response = await buyWith(late, event.id, link.code).finally(() => {
    h.courtesy.hooks.beforeTake = undefined;
  });
  expect(rivalResponse?.status).toBe(201);
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Esta cortesia já foi totalmente utilizada.' });

  const [winner] = await h.ordersOf(rival.id);
  expect(await h.ordersOf(late.id)).toEqual([]);
  expect(h.courtesy.usesOf(link.id)).toEqual([winner.id]);
  expect((await h.holds(event.id)).map((hold) => hold.id)).toEqual([`order:${winner.id}`]);
  const [refused] = takenFor(link.code).filter((orderId) => orderId !== winner.id);
  expect(h.payments.callsFor(refused!)).toEqual([]);
  expect(await h.events(undefined, refused)).toEqual([]);
  expect(h.lines('order refused')).toContainEqual(
    expect.objectContaining({ orderId: refused, eventId: event.id, reason: 'promo_used_up' }),
  );
});

test('many buyers at once for a link with 3 uses: exactly 3 orders at its price, every other one refused, nothing left over', async () => {
  const event = await h.createEvent({ price: '200.00', maxAttendees: 50 });
  const link = h.courtesy.addLink({ eventId: event.id, overridePrice: '99.90', ticketCount: 3 });
  const buyers = await Promise.all(Array.from({ length: 12 }, () => h.buyer()));

  const responses = await Promise.all(buyers.map((who) => buyWith(who, event.id, link.code)));
  const answers = await Promise.all(responses.map(async (response) => [response.status, await json(response)]));
  const winners = answers.filter(([status]) => status === 201);
  expect(winners).toHaveLength(3);
  for (const [status, body] of answers.filter(([status]) => status !== 201)) {
    expect([
      [400, INVALID_PROMO],
      [409, { message: 'Esta cortesia já foi totalmente utilizada.' }],
    ]).toContainEqual([status, body]);
  }

  const rows = await h.orders.db('orders').where({ event_id: event.id });
  expect(rows).toHaveLength(3);
  for (const row of rows) expect(row).toMatchObject({ amount: '104.90', courtesy_link_id: link.id, status: 'pending' });
  const ids = rows.map((row) => row.id).sort();
  expect(h.courtesy.usesOf(link.id).sort()).toEqual(ids);
  expect((await h.holds(event.id)).map((hold) => hold.id).sort()).toEqual(ids.map((id) => `order:${id}`));
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 3 });
  expect(h.lines('unhandled error')).toEqual([]);
}, 30_000);

test('sold out after the use was taken: 409 "Evento esgotado", the use is given back and the order never was', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const link = h.courtesy.addLink({ eventId: event.id, ticketCount: 5 });
  const first = await bought(h, await h.buyer(), event.id);
  const who = await h.buyer();

  const response = await buyWith(who, event.id, link.code);
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Evento esgotado' });

  const [orderId] = takenFor(link.code);
  expect(h.courtesy.callsFor(orderId!, 'release')).toHaveLength(1);
  expect(h.courtesy.usesOf(link.id)).toEqual([]);
  expect(await h.ordersOf(who.id)).toEqual([]);
  expect(await h.events(undefined, orderId)).toEqual([]);
  expect((await h.holds(event.id)).map((hold) => hold.id)).toEqual([`order:${first.order.id}`]);
  expect(h.lines('order refused')).toContainEqual(expect.objectContaining({ orderId, reason: 'sold_out' }));
});

test('sold out and courtesy not answering the give-back: no order, and order.cancelled brings the use back', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const link = h.courtesy.addLink({ eventId: event.id, ticketCount: 5 });
  await bought(h, await h.buyer(), event.id);
  const who = await h.buyer();

  h.courtesy.behaviour.release = 'down';
  const response = await buyWith(who, event.id, link.code).finally(() => {
    h.courtesy.behaviour.release = 'ok';
  });
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Evento esgotado' });

  const [orderId] = takenFor(link.code);
  expect(await h.ordersOf(who.id)).toEqual([]);
  expect(await h.events(undefined, orderId)).toEqual([
    { type: 'order.cancelled', orderId, userId: who.id, eventId: event.id, paymentId: null },
  ]);
  // Courtesy still counts the use until it reads order.cancelled.
  expect(h.courtesy.usesOf(link.id)).toEqual([orderId]);
  expect(h.lines('use release failed; order.cancelled will release it')).toContainEqual(
    expect.objectContaining({ orderId, kind: 'promo' }),
  );
});

test('a refused charge cancels the promotional order with order.cancelled and gives the use back at once', async () => {
  const event = await h.createEvent({ maxAttendees: 5 });
  const link = h.courtesy.addLink({ eventId: event.id, ticketCount: 1 });
  const who = await h.buyer();

  h.payments.behaviour.charge = 'refuse';
  const refused = await buyWith(who, event.id, link.code, 'credit_card').finally(() => {
    h.payments.behaviour.charge = 'ok';
  });
  expect(refused.status).toBe(422);
  const [failed] = await h.ordersOf(who.id);
  expect(failed).toMatchObject({ status: 'cancelled', courtesy_link_id: link.id });
  expect(await h.events(undefined, failed.id)).toEqual([
    { type: 'order.cancelled', orderId: failed.id, userId: who.id, eventId: event.id, paymentId: null },
  ]);
  expect(h.courtesy.callsFor(failed.id, 'release')).toHaveLength(1);
  expect(h.courtesy.usesOf(link.id)).toEqual([]);

  // The only use is free again, so trying again works.
  const retry = await buyWith(who, event.id, link.code, 'credit_card');
  expect(retry.status).toBe(201);
  const { order } = await json(retry);
  expect(h.courtesy.usesOf(link.id)).toEqual([order.id]);
});

test('courtesy not answering: 503, and no order, spot or use is left behind', async () => {
  const event = await h.createEvent({ maxAttendees: 5 });
  const link = h.courtesy.addLink({ eventId: event.id, ticketCount: 5 });

  // Down when asked for the price: nothing is written.
  const early = await h.buyer();
  h.courtesy.behaviour.quote = 'down';
  const down = await buyWith(early, event.id, link.code).finally(() => {
    h.courtesy.behaviour.quote = 'ok';
  });
  expect(down.status).toBe(503);
  expect(await json(down)).toEqual(UNAVAILABLE);
  expect(await h.ordersOf(early.id)).toEqual([]);
  expect(takenFor(link.code)).toEqual([]);

  // The use taken but the answer lost: it is given back and the order removed.
  const lost = await h.buyer();
  h.courtesy.behaviour.take = 'lost';
  const noAnswer = await buyWith(lost, event.id, link.code).finally(() => {
    h.courtesy.behaviour.take = 'ok';
  });
  expect(noAnswer.status).toBe(503);
  expect(await json(noAnswer)).toEqual(UNAVAILABLE);
  const [lostOrder] = takenFor(link.code);
  expect(h.courtesy.callsFor(lostOrder!, 'release')).toHaveLength(1);
  expect(await h.ordersOf(lost.id)).toEqual([]);
  expect(await h.events(undefined, lostOrder)).toEqual([]);

  // Lost, and the give-back not answered either: still no order, and order.cancelled frees the use.
  const unlucky = await h.buyer();
  h.courtesy.behaviour.take = 'lost';
  h.courtesy.behaviour.release = 'down';
  const neither = await buyWith(unlucky, event.id, link.code).finally(() => {
    h.courtesy.behaviour.take = 'ok';
    h.courtesy.behaviour.release = 'ok';
  });
  expect(neither.status).toBe(503);
  const unluckyOrder = takenFor(link.code).at(-1)!;
  expect(await h.ordersOf(unlucky.id)).toEqual([]);
  expect(await h.events(undefined, unluckyOrder)).toEqual([
    { type: 'order.cancelled', orderId: unluckyOrder, userId: unlucky.id, eventId: event.id, paymentId: null },
  ]);
  expect(h.courtesy.usesOf(link.id)).toEqual([unluckyOrder]);

  // No spot was held by any of them, and nobody was charged.
  expect(await h.holds(event.id)).toEqual([]);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  for (const orderId of takenFor(link.code)) expect(h.payments.callsFor(orderId)).toEqual([]);
  expect(h.lines('order creation failed')).toContainEqual(
    expect.objectContaining({ orderId: lostOrder, reason: 'promo_failed', status: 500 }),
  );
  expect(h.lines('unhandled error')).toEqual([]);
});
