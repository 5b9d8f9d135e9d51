import { randomUUID } from 'node:crypto';
import { checkCooldownKey } from '../src/index.ts';
import { bought, paymentConfirmed, startOrders, type Buyer, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  // One buyer here holds a dozen pending orders to fill two pages: above the usual caps.
  h = await startOrders({ env: { MAX_PENDING_ORDERS: '20', ORDER_RATE_LIMIT_POINTS: '100' } });
});
afterAll(() => h.stop());

const list = (who: Buyer, query = '') => h.request('GET', `/api/orders${query}`, { token: who.token });
const cancel = (who: Buyer, orderId: string) =>
  h.request('DELETE', `/api/orders/${orderId}/cancel`, { token: who.token });
const check = (who: Buyer, orderId: string) =>
  h.request('POST', `/api/orders/${orderId}/check-status`, { token: who.token });
const NOT_FOUND = { message: 'Pedido não encontrado' };

const paid = (orderId: string) => paymentConfirmed(h, orderId);

describe('GET /api/orders', () => {
  test("lists only the caller's orders, newest first, ten per page, with the event as sold", async () => {
    const who = await h.buyer();
    const someoneElse = await h.buyer();
    const events = await Promise.all(Array.from({ length: 12 }, (_, i) => h.createEvent({ title: `Evento ${i}` })));
    const mine: string[] = [];
    for (const event of events) mine.push((await bought(h, who, event.id)).order.id);
    await bought(h, someoneElse, events[0]!.id);

    const first = await list(who);
    expect(first.status).toBe(200);
    const page1 = await json(first);
    expect(page1.totalPages).toBe(2);
    expect(page1.orders.map((order: { id: string }) => order.id)).toEqual(mine.slice(2).reverse());
    const newest = events[11]!;
    expect(page1.orders[0]).toEqual({
      id: mine[11],
      orderNumber: expect.stringMatching(/^EF-\d{6}$/),
      status: 'pending',
      amount: '155.00',
      totalAmount: '155.00',
      items: [expect.objectContaining({ index: 0, typeName: 'Ingresso', price: '150.00', holderEmail: who.email })],
      paymentMethod: 'pix',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      qrCodeData: null,
      qrCodeUsed: false,
      qrCodeUsedAt: null,
      refund: null,
      canWithdraw: false,
      withdrawalRequestedAt: null,
      asaasPaymentId: expect.stringMatching(/^pay_/),
      event: { title: newest.title, date: newest.date, location: newest.location },
      payment: expect.objectContaining({ pixPayload: expect.stringMatching(/^000201/), boletoLine: null }),
      company: null,
      installments: 1,
      discountAmount: '0.00',
      couponCode: null,
      invoice: null,
    });

    const page2 = await json(await list(who, '?page=2'));
    expect(page2).toEqual({ orders: expect.any(Array), totalPages: 2 });
    expect(page2.orders.map((order: { id: string }) => order.id)).toEqual([mine[1], mine[0]]);
    expect((await json(await list(who, '?page=3'))).orders).toEqual([]);

    // Payments not answering: the list still answers, without the way to pay until it does.
    h.payments.behaviour.read = 'down';
    try {
      const unanswered = await json(await list(who));
      expect(unanswered.orders.map((order: { id: string }) => order.id)).toEqual(mine.slice(2).reverse());
      expect(unanswered.orders[0]).toMatchObject({ status: 'pending', payment: null });
    } finally {
      h.payments.behaviour.read = 'ok';
    }

    const theirs = await json(await list(someoneElse));
    expect(theirs.orders).toHaveLength(1);
    expect(theirs.orders[0].id).not.toBe(mine[0]);
  });

  test('someone with no orders gets an empty first page; a bad page is 400', async () => {
    const nobody = await h.buyer();
    expect(await json(await list(nobody))).toEqual({ orders: [], totalPages: 1 });
    for (const query of ['?page=0', '?page=-1', '?page=abc', '?page=1.5']) {
      const response = await list(nobody, query);
      expect({ query, status: response.status, body: await json(response) }).toEqual({
        query,
        status: 400,
        body: { message: 'Página inválida' },
      });
    }
  });
});

describe('DELETE /api/orders/:id/cancel', () => {
  test('the owner cancels a pending order: cancelled, order.cancelled written, nobody called synchronously', async () => {
    const event = await h.createEvent({ maxAttendees: 5 });
    const who = await h.buyer();
    const { order } = await bought(h, who, event.id);
    const callsBefore = h.payments.calls.length;

    const response = await cancel(who, order.id);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'Pedido cancelado.' });
    const row = await h.orderRow(order.id);
    expect(row).toMatchObject({ status: 'cancelled' });
    expect(row.cancelled_at).toBeInstanceOf(Date);
    expect(await h.events('order.cancelled', order.id)).toEqual([
      {
        type: 'order.cancelled',
        orderId: order.id,
        userId: who.id,
        eventId: event.id,
        paymentId: order.asaasPaymentId,
      },
    ]);
    // The catalog and payments act on the event, not on a call from here.
    expect(h.payments.calls).toHaveLength(callsBefore);
    expect(await h.holds(event.id)).toEqual([expect.objectContaining({ released_at: null })]);
    expect(h.lines('order cancelled')).toContainEqual(expect.objectContaining({ orderId: order.id, reason: 'buyer' }));

    const again = await cancel(who, order.id);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ message: 'Apenas pedidos aguardando pagamento podem ser cancelados.' });
    expect(await h.events('order.cancelled', order.id)).toHaveLength(1);
  });

  test("a paid order cannot be cancelled (409); someone else's or an unknown one is 404 and stays as it is", async () => {
    const event = await h.createEvent();
    const owner = await h.buyer();
    const intruder = await h.buyer();
    const { order } = await bought(h, owner, event.id);

    for (const id of [order.id, randomUUID(), 'nao-e-um-id']) {
      const response = await cancel(intruder, id);
      expect({ id, status: response.status, body: await json(response) }).toEqual({
        id,
        status: 404,
        body: NOT_FOUND,
      });
    }
    expect(await h.orderRow(order.id)).toMatchObject({ status: 'pending' });
    expect(await h.events('order.cancelled', order.id)).toEqual([]);

    await paid(order.id);
    const response = await cancel(owner, order.id);
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({ message: 'Este pedido já foi pago e não pode ser cancelado.' });
    expect(await h.orderRow(order.id)).toMatchObject({ status: 'paid' });
  });

  test('ten cancels of one order at once: one wins, one order.cancelled', async () => {
    const who = await h.buyer();
    const { order } = await bought(h, who, (await h.createEvent()).id);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => cancel(who, order.id)))).map((r) => r.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(await h.events('order.cancelled', order.id)).toHaveLength(1);
  });
});

describe('POST /api/orders/:id/check-status', () => {
  test('asks payments once per ten seconds per order; answers pending, then confirmed', async () => {
    const who = await h.buyer();
    const { order } = await bought(h, who, (await h.createEvent()).id);

    const first = await check(who, order.id);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({
      message: 'Pagamento ainda não identificado. Tente novamente em alguns minutos.',
    });
    expect(h.payments.callsFor(order.id, 'check')).toHaveLength(1);
    expect(await h.orders.redis.ttl(checkCooldownKey(order.id))).toBeGreaterThan(0);
    expect(h.lines('payment checked')).toContainEqual(expect.objectContaining({ orderId: order.id, paid: false }));

    const tooSoon = await check(who, order.id);
    expect(tooSoon.status).toBe(429);
    expect(await json(tooSoon)).toEqual({
      message: 'Aguarde alguns segundos antes de verificar o pagamento novamente.',
    });
    expect(h.payments.callsFor(order.id, 'check')).toHaveLength(1);

    // Ten seconds later (the key expires), the provider has the money.
    await h.orders.redis.del(checkCooldownKey(order.id));
    h.payments.paid.add(order.id);
    const later = await check(who, order.id);
    expect(later.status).toBe(200);
    expect(await json(later)).toEqual({ message: 'Pagamento confirmado! Seu ingresso foi enviado por e-mail.' });
    expect(h.payments.callsFor(order.id, 'check')).toHaveLength(2);
    // The order moves only when payment.confirmed arrives, as with a webhook.
    expect(await h.orderRow(order.id)).toMatchObject({ status: 'pending' });
  });

  test("someone else's order is 404 and spends neither a call nor the owner's turn; closed orders are 409", async () => {
    const owner = await h.buyer();
    const intruder = await h.buyer();
    const { order } = await bought(h, owner, (await h.createEvent()).id);
    for (const id of [order.id, randomUUID(), 'x']) {
      const response = await check(intruder, id);
      expect({ id, status: response.status, body: await json(response) }).toEqual({
        id,
        status: 404,
        body: NOT_FOUND,
      });
    }
    expect(h.payments.callsFor(order.id, 'check')).toEqual([]);
    expect(await h.orders.redis.exists(checkCooldownKey(order.id))).toBe(0);

    expect((await cancel(owner, order.id)).status).toBe(200);
    const closed = await check(owner, order.id);
    expect(closed.status).toBe(409);
    expect(await json(closed)).toEqual({ message: 'Este pedido não está aguardando pagamento.' });
    expect(h.payments.callsFor(order.id, 'check')).toEqual([]);
  });

  test('payments not answering is 502 "Erro ao verificar status do pagamento"', async () => {
    const who = await h.buyer();
    const { order } = await bought(h, who, (await h.createEvent()).id);
    h.payments.behaviour.check = 'down';
    const response = await check(who, order.id).finally(() => {
      h.payments.behaviour.check = 'ok';
    });
    expect(response.status).toBe(502);
    expect(await json(response)).toEqual({ message: 'Erro ao verificar status do pagamento' });
    expect(h.lines('payment status check failed')).toContainEqual(expect.objectContaining({ orderId: order.id }));
  });
});
