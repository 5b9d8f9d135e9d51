import { couponMessages, type SalesView } from '@ticketing/proto';
import { json, paymentConfirmed, startOrders, type Harness } from './support.ts';

/** Coupons typed at checkout: one use per order taken in courtesy, the discount off the tickets' prices. */
let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

/** An event with one type at R$ 150,00 and another at R$ 90,00, and the ids of its types. */
async function eventWithTwoTypes(fields: Record<string, unknown> = {}) {
  const event = await h.createEvent({
    ticketTypes: [
      { name: 'Profissional', price: '150.00' },
      { name: 'Estudante', price: '90.00' },
    ],
    ...fields,
  });
  const [professional, student] = event.ticketTypes.map((type) => type.id);
  return { event, professional: professional!, student: student! };
}

test('a percentage coupon takes its share off the tickets it covers; the fee stays', async () => {
  const { event, professional, student } = await eventWithTwoTypes();
  // 10% off the professional tickets only.
  const coupon = h.courtesy.addCoupon({ eventId: event.id, percentOff: 10, ticketTypeIds: [professional] });
  const who = await h.buyer();

  const response = await h.buy(who, {
    eventId: event.id,
    paymentMethod: 'pix',
    couponCode: coupon.code.toLowerCase(),
    items: [{ ticketTypeId: professional }, { ticketTypeId: professional }, { ticketTypeId: student }],
  });
  expect(response.status).toBe(201);
  const { order } = await json(response);
  // 150 + 150 + 90 + 3 × 5 = 405, less 10% of 300.
  expect(order).toMatchObject({ amount: '375.00', discountAmount: '30.00', couponCode: coupon.code });
  expect(h.courtesy.callsFor(order.id, 'take-coupon')).toEqual([
    expect.objectContaining({ code: coupon.code, eventId: event.id, ticketTypeIds: [professional, student] }),
  ]);
  expect(h.courtesy.couponUsesOf(coupon.couponId)).toEqual([order.id]);
  expect(h.payments.callsFor(order.id, 'charge')[0]!.body).toMatchObject({ amount: '375.00' });
  expect(await h.orderRow(order.id)).toMatchObject({
    amount: '375.00',
    discount_amount: '30.00',
    coupon_id: coupon.couponId,
    coupon_code: coupon.code,
  });
  expect(await h.events('order.created', order.id)).toEqual([
    expect.objectContaining({ amount: '375.00', discountAmount: '30.00' }),
  ]);
  // The buyer's confirmation shows the discount too.
  await paymentConfirmed(h, order.id);
  expect(await h.events('order.paid', order.id)).toEqual([
    expect.objectContaining({ amount: '375.00', discountAmount: '30.00', installments: 1 }),
  ]);
});

test('a fixed coupon takes its amount off, never more than the tickets cost', async () => {
  const { event, student } = await eventWithTwoTypes();
  const fixed = h.courtesy.addCoupon({ eventId: event.id, amountOff: '20.00' });
  const whole = h.courtesy.addCoupon({ amountOff: '500.00' });

  const first = await json(
    await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', couponCode: fixed.code }),
  );
  expect(first.order).toMatchObject({ amount: '135.00', discountAmount: '20.00' });

  const items = [{ ticketTypeId: student }];
  const second = await json(
    await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', couponCode: whole.code, items }),
  );
  // Only the convenience fee is left to pay.
  expect(second.order).toMatchObject({ amount: '5.00', discountAmount: '90.00' });
});

test('courtesy refusing a coupon is answered in its words, with nothing taken or written', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const usedUp = h.courtesy.addCoupon({ eventId: event.id, percentOff: 50, maxUses: 1 });
  const expired = h.courtesy.addCoupon({ eventId: event.id, percentOff: 50, refusal: couponMessages.expired });
  await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', couponCode: usedUp.code });
  const who = await h.buyer();

  const cases: [string, number, string][] = [
    ['NAOEXISTE', 400, couponMessages.invalid],
    [usedUp.code, 409, couponMessages.usedUp],
    [expired.code, 422, couponMessages.expired],
  ];
  for (const [couponCode, status, message] of cases) {
    const response = await h.buy(who, { eventId: event.id, paymentMethod: 'pix', couponCode });
    expect([response.status, await json(response)]).toEqual([status, { message }]);
  }
  expect(await h.ordersOf(who.id)).toEqual([]);
  // Only the first purchase holds a spot.
  expect((await h.holds(event.id)).filter((hold: { released_at: Date | null }) => !hold.released_at)).toHaveLength(1);
});

test('a coupon taken is given back when the purchase is refused later (sold out)', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const coupon = h.courtesy.addCoupon({ eventId: event.id, percentOff: 20, maxUses: 5 });
  await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix' });

  const response = await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', couponCode: coupon.code });
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Evento esgotado' });
  const taken = h.courtesy.calls.filter((call) => call.action === 'take-coupon' && call.code === coupon.code);
  expect(taken).toHaveLength(1);
  expect(h.courtesy.callsFor(taken[0]!.orderId!, 'release-coupon')).toHaveLength(1);
  expect(h.courtesy.couponUsesOf(coupon.couponId)).toEqual([]);
});

test('courtesy not answering a coupon use: the use is given back and the buyer asked to try again', async () => {
  const event = await h.createEvent();
  const coupon = h.courtesy.addCoupon({ eventId: event.id, percentOff: 20 });
  const who = await h.buyer();
  h.courtesy.behaviour.take = 'down';
  const response = await h
    .buy(who, { eventId: event.id, paymentMethod: 'pix', couponCode: coupon.code })
    .finally(() => {
      h.courtesy.behaviour.take = 'ok';
    });
  expect(response.status).toBe(503);
  const [taken] = h.courtesy.calls.filter((call) => call.action === 'take-coupon' && call.code === coupon.code);
  expect(h.courtesy.callsFor(taken!.orderId!, 'release-coupon')).toHaveLength(1);
  expect(await h.ordersOf(who.id)).toEqual([]);
});

test('a coupon and a promotional code together are refused before anything is asked', async () => {
  const event = await h.createEvent();
  const link = h.courtesy.addLink({ eventId: event.id });
  const coupon = h.courtesy.addCoupon({ eventId: event.id, percentOff: 20 });
  const calls = h.courtesy.calls.length;
  const response = await h.buy(await h.buyer(), {
    eventId: event.id,
    paymentMethod: 'pix',
    promoCode: link.code,
    couponCode: coupon.code,
  });
  expect(response.status).toBe(422);
  expect(await json(response)).toEqual({ message: couponMessages.withPromo });
  expect(h.courtesy.calls).toHaveLength(calls);
});

test('sales show what coupons took off paid orders, in all and per coupon, most used first', async () => {
  const event = await h.createEvent();
  const popular = h.courtesy.addCoupon({ eventId: event.id, amountOff: '15.00' });
  const rare = h.courtesy.addCoupon({ eventId: event.id, percentOff: 50 });
  const buyWith = async (couponCode?: string) => {
    const { order } = await json(
      await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', ...(couponCode ? { couponCode } : {}) }),
    );
    return order.id as string;
  };
  const paid = [await buyWith(popular.code), await buyWith(popular.code), await buyWith(rare.code), await buyWith()];
  for (const orderId of paid) await paymentConfirmed(h, orderId);
  // Not paid: not counted.
  await buyWith(rare.code);

  const response = await h.request('GET', `/api/admin/sales?eventId=${event.id}`, { token: h.adminToken });
  const sales = (await json(response)) as SalesView;
  // Paid: 140 + 140 + 80 + 155.
  expect(sales).toMatchObject({
    gross: '515.00',
    discounts: '105.00',
    perCoupon: [
      { code: popular.code, orders: 2, discount: '30.00' },
      { code: rare.code, orders: 1, discount: '75.00' },
    ],
  });
});
