import { randomUUID } from 'node:crypto';
import { bought, DAY, MINUTE, startOrders, type Harness, json } from './support.ts';

let h: Harness;

beforeAll(async () => {
  h = await startOrders();
});
afterAll(() => h.stop());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

test('a verified buyer buys with PIX: 201 with the order and the code to pay; spot held, charge made, order.created', async () => {
  const event = await h.createEvent({ price: '150.00', maxAttendees: 10 });
  const who = await h.buyer({ name: 'Ana Beatriz Souza' });
  const before = Date.now();

  const response = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' });
  expect(response.status).toBe(201);
  const body = await json(response);
  const orderId = body.order.id;
  const charge = h.payments.charges.get(orderId)!;
  expect(body).toEqual({
    order: {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orderNumber: expect.stringMatching(/^EF-\d{6}$/),
      status: 'pending',
      amount: '155.00',
      totalAmount: '155.00',
      items: [
        {
          index: 0,
          ticketTypeId: event.ticketTypes[0]?.id ?? event.id,
          typeName: 'Ingresso',
          lotName: null,
          price: '150.00',
          requiresDocument: false,
          holderName: who.name,
          holderEmail: who.email,
          ticketId: null,
          qrCodeData: null,
          qrCodeUsed: false,
          canChangeHolder: false,
        },
      ],
      paymentMethod: 'pix',
      createdAt: expect.stringMatching(ISO),
      expiresAt: expect.stringMatching(ISO),
      qrCodeData: null,
      qrCodeUsed: false,
      qrCodeUsedAt: null,
      refund: null,
      canWithdraw: false,
      withdrawalRequestedAt: null,
      asaasPaymentId: charge.view.paymentId,
      event: { title: event.title, date: event.date, location: event.location },
      payment: body.payment,
      company: null,
      installments: 1,
      discountAmount: '0.00',
      couponCode: null,
      invoice: null,
    },
    payment: {
      pixQrCode: charge.view.pixQrCode,
      pixPayload: charge.view.pixPayload,
      boletoUrl: null,
      boletoLine: null,
      invoiceUrl: charge.view.invoiceUrl,
      expiresAt: body.order.expiresAt,
    },
  });
  const window = Date.parse(body.order.expiresAt) - before;
  expect(window).toBeGreaterThanOrEqual(30 * MINUTE - 1000);
  expect(window).toBeLessThanOrEqual(30 * MINUTE + 5000);

  // State: the order, with its charge and snapshots; the spot in the catalog.
  expect(await h.orderRow(orderId)).toMatchObject({
    user_id: who.id,
    event_id: event.id,
    status: 'pending',
    amount: '155.00',
    cpf: who.cpf,
    asaas_payment_id: charge.view.paymentId,
    buyer_name: 'Ana Beatriz Souza',
    buyer_email: who.email,
    event_title: event.title,
  });
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  // Held for good: the order confirmed its provisional spot.
  expect(await h.holds(event.id)).toEqual([
    expect.objectContaining({ id: `order:${orderId}`, quantity: 1, released_at: null, expires_at: null }),
  ]);

  // Outgoing: identity asked, one charge with the buyer's data and the total.
  expect(h.identity.calls).toContain(who.id);
  expect(h.payments.callsFor(orderId)).toHaveLength(1);
  expect(charge.request).toEqual({
    method: 'pix',
    amount: '155.00',
    description: `1× Ingresso – pedido ${body.order.orderNumber} – ${event.title}`,
    dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    customer: { userId: who.id, name: 'Ana Beatriz Souza', cpf: who.cpf, email: who.email, phone: who.phone },
    installments: 1,
    orderNumber: body.order.orderNumber,
  });

  // Events and logs.
  expect(await h.events(undefined, orderId)).toEqual([
    {
      type: 'order.created',
      orderId,
      orderNumber: body.order.orderNumber,
      userId: who.id,
      eventId: event.id,
      amount: '155.00',
      paymentMethod: 'pix',
      expiresAt: body.order.expiresAt,
      invoiceUrl: charge.view.invoiceUrl,
      pixPayload: charge.view.pixPayload,
      boletoUrl: null,
      boletoLine: null,
      buyer: { name: 'Ana Beatriz Souza', email: who.email },
      event: { title: event.title, date: event.date, location: event.location },
      items: [
        {
          index: 0,
          ticketTypeId: event.ticketTypes[0]?.id ?? event.id,
          typeName: 'Ingresso',
          lotName: null,
          price: '150.00',
          requiresDocument: false,
          holder: { name: 'Ana Beatriz Souza', email: who.email, cpf: who.cpf },
        },
      ],
      company: null,
      installments: 1,
      discountAmount: '0.00',
    },
  ]);
  expect(h.lines('order created')).toContainEqual(
    expect.objectContaining({ orderId, eventId: event.id, paymentMethod: 'pix' }),
  );
  const logged = JSON.stringify(h.logs.lines);
  for (const personal of [who.email, who.cpf!, 'Ana Beatriz']) expect(logged).not.toContain(personal);
});

test('boleto runs to 23:59:59 in São Paulo of the 7th business day; card gets 24 hours and its payment link', async () => {
  const event = await h.createEvent({ price: '99.90' });
  const boleto = await bought(h, await h.buyer(), event.id, 'boleto');
  expect(boleto.order.amount).toBe('104.90');
  expect(boleto.payment).toMatchObject({ boletoUrl: expect.stringContaining('https://'), pixPayload: null });
  const expiresAt = new Date(boleto.payment.expiresAt as string);
  const local = new Date(expiresAt.getTime() - 3 * 60 * MINUTE);
  expect(local.toISOString().slice(11, 19)).toBe('23:59:59');
  expect([1, 2, 3, 4, 5]).toContain(local.getUTCDay());
  const days = (expiresAt.getTime() - Date.now()) / DAY;
  expect(days).toBeGreaterThan(8);
  expect(days).toBeLessThan(12);
  expect(h.payments.charges.get(boleto.order.id)!.request).toMatchObject({
    method: 'boleto',
    dueDate: local.toISOString().slice(0, 10),
  });

  const card = await bought(h, await h.buyer(), event.id, 'credit_card');
  const cardWindow = Date.parse(card.payment.expiresAt as string) - Date.now();
  expect(cardWindow).toBeGreaterThan(DAY - MINUTE);
  expect(cardWindow).toBeLessThanOrEqual(DAY);
  expect(await h.events('order.created', card.order.id)).toEqual([
    expect.objectContaining({ paymentMethod: 'credit_card', invoiceUrl: card.payment.invoiceUrl }),
  ]);
});

test('anonymous callers and bad tokens get 401 on every route, and nothing is asked of anyone', async () => {
  const orderPath = `/api/orders/${randomUUID()}`;
  const calls = h.payments.calls.length;
  for (const [method, path] of [
    ['POST', '/api/orders'],
    ['GET', '/api/orders'],
    ['DELETE', `${orderPath}/cancel`],
    ['POST', `${orderPath}/check-status`],
  ] as const) {
    for (const token of [undefined, 'nao-e-um-token']) {
      const response = await h.request(method, path, { token, body: method === 'POST' ? {} : undefined });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
      expect((await json(response)).message).toEqual(expect.any(String));
    }
  }
  expect(h.payments.calls).toHaveLength(calls);
});

test('an unverified e-mail is 403 and an unknown account 401: no order, no spot kept, no charge', async () => {
  const event = await h.createEvent({ maxAttendees: 5 });
  const unverified = await h.buyer({ emailVerified: false });
  const response = await h.buy(unverified, { eventId: event.id, paymentMethod: 'pix' });
  expect(response.status).toBe(403);
  expect(await json(response)).toEqual({ message: 'Confirme seu e-mail antes de comprar ingressos.' });

  const gone = await h.buyer();
  h.identity.users.delete(gone.id);
  const unknown = await h.buy(gone, { eventId: event.id, paymentMethod: 'pix' });
  expect(unknown.status).toBe(401);
  expect(await json(unknown)).toEqual({ message: 'Sessão inválida ou expirada. Faça login novamente.' });

  expect(await h.ordersOf(unverified.id)).toEqual([]);
  expect(await h.ordersOf(gone.id)).toEqual([]);
  // The spot is held before the buyer is asked about, and given back on the refusal.
  expect(await h.holds(event.id)).toEqual([
    expect.objectContaining({ released_at: expect.any(Date) }),
    expect.objectContaining({ released_at: expect.any(Date) }),
  ]);
  expect(
    h.payments.calls.filter(
      (call) => (call.body as { customer?: { userId?: string } })?.customer?.userId === unverified.id,
    ),
  ).toEqual([]);
});

test('unknown, inactive, cancelled and past events, bad bodies and unknown promo codes are refused without writing anything', async () => {
  const who = await h.buyer();
  const past = await h.createEvent({ date: new Date(Date.now() - DAY).toISOString() });
  const inactive = await h.createEvent();
  await fetch(`${h.catalog.url}/api/events/${inactive.id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${h.adminToken}` },
  });
  const cancelled = await h.createEvent();
  const cancelling = await fetch(`${h.catalog.url}/api/admin/events/${cancelled.id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'Palestrante indisponível' }),
  });
  expect(cancelling.status).toBe(202);
  const open = await h.createEvent();
  const cases: [Record<string, unknown>, number, string][] = [
    [{ eventId: randomUUID(), paymentMethod: 'pix' }, 404, 'Evento não encontrado'],
    [{ eventId: inactive.id, paymentMethod: 'pix' }, 409, 'Este evento não está disponível para compra.'],
    [{ eventId: cancelled.id, paymentMethod: 'pix' }, 404, 'Evento cancelado'],
    [{ eventId: past.id, paymentMethod: 'pix' }, 409, 'Este evento não está disponível para compra.'],
    [{ eventId: 'abc', paymentMethod: 'pix' }, 400, 'Evento inválido'],
    [{ eventId: open.id, paymentMethod: 'cheque' }, 400, 'Forma de pagamento inválida'],
    [
      { eventId: open.id, paymentMethod: 'pix', promoCode: 'cdpi12345abc' },
      400,
      'Este código promocional não é válido para este evento.',
    ],
  ];
  for (const [body, status, message] of cases) {
    const response = await h.buy(who, body);
    expect({ body, status: response.status, answer: await json(response) }).toEqual({
      body,
      status,
      answer: { message },
    });
  }
  const malformed = await h.request('POST', '/api/orders', { token: who.token, raw: '{eventId:' });
  expect(malformed.status).toBe(400);
  const badKey = await h.buy(who, { eventId: open.id, paymentMethod: 'pix' }, { 'idempotency-key': 'com espaço' });
  expect(badKey.status).toBe(400);

  expect(await h.ordersOf(who.id)).toEqual([]);
  for (const event of [past, inactive, open]) expect(await h.holds(event.id)).toEqual([]);
  expect(h.lines('unhandled error')).toEqual([]);
});

test('the same Idempotency-Key, even at once, makes one order, one hold and one charge, and answers the first', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const who = await h.buyer();
  const key = randomUUID();
  const responses = await Promise.all(
    Array.from({ length: 3 }, () =>
      h.buy(who, { eventId: event.id, paymentMethod: 'pix' }, { 'idempotency-key': key }),
    ),
  );
  const bodies = await Promise.all(responses.map((response) => json(response)));
  expect(responses.map((response) => response.status)).toEqual([201, 201, 201]);
  expect(bodies[1]).toEqual(bodies[0]);
  expect(bodies[2]).toEqual(bodies[0]);
  const later = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' }, { 'idempotency-key': key });
  expect(later.status).toBe(201);
  expect(await json(later)).toEqual(bodies[0]);

  const orderId = bodies[0].order.id;
  expect(await h.ordersOf(who.id)).toEqual([expect.objectContaining({ id: orderId, idempotency_key: key })]);
  expect(await h.holds(event.id)).toHaveLength(1);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect(h.payments.callsFor(orderId, 'charge')).toHaveLength(1);
  expect(await h.events('order.created', orderId)).toHaveLength(1);

  // The key belongs to that purchase: another event with it is refused.
  const other = await h.createEvent();
  const reused = await h.buy(who, { eventId: other.id, paymentMethod: 'pix' }, { 'idempotency-key': key });
  expect(reused.status).toBe(422);
  expect(await json(reused)).toEqual({ message: 'Esta chave de idempotência já foi usada em outro pedido.' });
  expect(await h.holds(other.id)).toEqual([]);
});

test('a pending order for the same event is answered as it is (200), with no second hold or charge', async () => {
  const event = await h.createEvent({ maxAttendees: 10 });
  const who = await h.buyer();
  const first = await bought(h, who, event.id, 'pix');

  const again = await h.buy(who, { eventId: event.id, paymentMethod: 'boleto' });
  expect(again.status).toBe(200);
  expect(await json(again)).toEqual(first);
  expect(await h.ordersOf(who.id)).toHaveLength(1);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect(h.payments.callsFor(first.order.id, 'charge')).toHaveLength(1);

  // Someone else buying the same event gets an order of their own.
  const other = await bought(h, await h.buyer(), event.id);
  expect(other.order.id).not.toBe(first.order.id);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 2 });
});

test('sold out: 409 "Evento esgotado", no order row was ever written, nobody was charged', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const winner = await bought(h, await h.buyer(), event.id);
  const late = await h.buyer();
  const charges = h.payments.calls.length;
  // Every order row written takes an order number, even one removed afterwards.
  const lastNumber = async () => (await h.orders.db.raw('select last_value from order_numbers')).rows[0].last_value;
  const numbered = await lastNumber();

  const response = await h.buy(late, { eventId: event.id, paymentMethod: 'pix' });
  expect(response.status).toBe(409);
  expect(await json(response)).toEqual({ message: 'Evento esgotado' });
  expect(await h.ordersOf(late.id)).toEqual([]);
  expect(await lastNumber()).toBe(numbered);
  expect(h.payments.calls).toHaveLength(charges);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
  expect((await h.holds(event.id)).map((hold) => hold.id)).toEqual([`order:${winner.order.id}`]);
  expect(h.lines('order refused')).toContainEqual(expect.objectContaining({ eventId: event.id, reason: 'sold_out' }));
});

test('a refused charge releases the spot and cancels the order: 422 with the reason; a retry with the key tries again', async () => {
  const event = await h.createEvent({ maxAttendees: 1 });
  const who = await h.buyer();
  const key = randomUUID();
  h.payments.behaviour.charge = 'refuse';
  let response: Response;
  try {
    response = await h.buy(who, { eventId: event.id, paymentMethod: 'credit_card' }, { 'idempotency-key': key });
  } finally {
    h.payments.behaviour.charge = 'ok';
  }
  expect(response.status).toBe(422);
  expect(await json(response)).toEqual({ message: 'Erro ao processar pagamento: o provedor recusou a cobrança' });

  const [failed] = await h.ordersOf(who.id);
  expect(failed).toMatchObject({ status: 'cancelled', asaas_payment_id: null, idempotency_key: null });
  expect(failed.cancelled_at).toBeInstanceOf(Date);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  const [hold] = await h.holds(event.id);
  expect(hold).toMatchObject({ id: `order:${failed.id}` });
  expect(hold.released_at).toBeInstanceOf(Date);
  expect(await h.events(undefined, failed.id)).toEqual([
    { type: 'order.cancelled', orderId: failed.id, userId: who.id, eventId: event.id, paymentId: null },
  ]);
  expect(h.lines('order creation failed')).toContainEqual(
    expect.objectContaining({ orderId: failed.id, reason: 'charge_failed', status: 422 }),
  );

  // The spot was given back, so the retry (same key) gets it.
  const retry = await h.buy(who, { eventId: event.id, paymentMethod: 'credit_card' }, { 'idempotency-key': key });
  expect(retry.status).toBe(201);
  const { order } = await json(retry);
  expect(order.id).not.toBe(failed.id);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 1 });
});

test('payments or identity not answering: 502 / 503, and nothing stays held', async () => {
  const event = await h.createEvent({ maxAttendees: 3 });
  const who = await h.buyer();
  h.payments.behaviour.charge = 'down';
  const down = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' }).finally(() => {
    h.payments.behaviour.charge = 'ok';
  });
  expect(down.status).toBe(502);
  expect(await json(down)).toEqual({
    message: 'Erro ao processar pagamento: o provedor de pagamentos não respondeu. Tente novamente.',
  });
  expect(await h.ordersOf(who.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });

  h.identity.setDown(true);
  const noIdentity = await h
    .buy(who, { eventId: event.id, paymentMethod: 'pix' })
    .finally(() => h.identity.setDown(false));
  expect(noIdentity.status).toBe(503);
  expect(await json(noIdentity)).toEqual({
    message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
  });
  expect(await h.ordersOf(who.id)).toHaveLength(1);
  expect(h.lines('unhandled error')).toEqual([]);
});

test('identity or payments answering a body its contract rejects: 503 / 502 as when it is down, logged and counted', async () => {
  const failures = async (collaborator: string) =>
    (await h.orders.metrics.collaboratorFailures.get()).values.find(
      ({ labels }) => labels.collaborator === collaborator && labels.reason === 'invalid_answer',
    )?.value ?? 0;
  const event = await h.createEvent({ maxAttendees: 3 });
  const who = await h.buyer();
  const before = { identity: await failures('identity'), payments: await failures('payments') };

  h.identity.users.set(who.id, { ...who, emailVerified: 'sim' as unknown as boolean });
  const garbledBuyer = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' });
  h.identity.users.set(who.id, who);
  expect(garbledBuyer.status).toBe(503);
  expect(await json(garbledBuyer)).toEqual({
    message: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
  });
  expect(await failures('identity')).toBe(before.identity + 1);
  expect(h.lines('collaborator answer breaks its contract')).toContainEqual(
    expect.objectContaining({
      collaborator: 'identity',
      path: `/internal/users/${who.id}`,
      issues: [expect.objectContaining({ path: ['emailVerified'] })],
    }),
  );

  h.payments.behaviour.charge = 'garbled';
  const garbledCharge = await h.buy(who, { eventId: event.id, paymentMethod: 'pix' }).finally(() => {
    h.payments.behaviour.charge = 'ok';
  });
  expect(garbledCharge.status).toBe(502);
  expect(await json(garbledCharge)).toEqual({
    message: 'Erro ao processar pagamento: o serviço de pagamentos não respondeu. Tente novamente.',
  });
  expect(await failures('payments')).toBe(before.payments + 1);
  // The order is given up and its spot given back, as when payments cannot be reached.
  expect(await h.ordersOf(who.id)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  expect(await h.eventRow(event.id)).toMatchObject({ current_attendees: 0 });
  expect(h.lines('unhandled error')).toEqual([]);
});
