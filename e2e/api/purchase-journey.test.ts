import { randomUUID } from 'node:crypto';
import { createDb, createLogger, createPostgresTransport, signBytes, signEnvelope } from '@ticketing/platform';
import { TEST_DATABASE_URL, readQrCode, testKeyRing, waitFor } from '@ticketing/testkit';
import { envelopeSigningBytes, ordersMessages, type Envelope } from '@ticketing/proto';
import { adminEvent, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

test('buying with PIX, boleto and card: paid in the provider, the QR ticket arrives by e-mail and admits once', async () => {
  const { call, mailTo, sandbox } = system;
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 10 });
  const buyer = await verifiedBuyer(system);

  for (const [method, shown] of [
    ['pix', 'pixPayload'],
    ['boleto', 'boletoUrl'],
    ['credit_card', 'invoiceUrl'],
  ] as const) {
    const bought = await call('POST', '/api/orders', { token: buyer.token, body: { eventId, paymentMethod: method } });
    expect(bought.status).toBe(201);
    expect(bought.body.order).toMatchObject({ status: 'pending', amount: '155.00', paymentMethod: method });
    expect(bought.body.payment[shown]).toEqual(expect.any(String));
    const { id: orderId, asaasPaymentId, orderNumber } = bought.body.order;
    if (method === 'pix') expect(bought.body.payment.pixQrCode).toEqual(expect.any(String));
    if (method === 'credit_card') {
      const link = await mailTo(buyer.email, `Finalize o pagamento do seu ingresso: Workshop de Farmácia Clínica`);
      expect(link.text).toContain(bought.body.payment.invoiceUrl);
    }

    // The provider confirms; its webhook reaches payments through the gateway, and the order chain follows.
    sandbox.confirm(asaasPaymentId);
    const paid = await waitFor(async () => {
      const { body } = await call('GET', '/api/orders?page=1', { token: buyer.token });
      const order = body.orders.find((candidate: { id: string }) => candidate.id === orderId);
      return order?.status === 'paid' && order.qrCodeData && order;
    });
    expect(paid).toMatchObject({
      amount: '155.00',
      qrCodeUsed: false,
      event: { title: 'Workshop de Farmácia Clínica' },
    });

    // The ticket e-mail carries the QR code; what it says is what the door scans.
    const ticketMail = await mailTo(buyer.email, 'Seu ingresso: Workshop de Farmácia Clínica', 0);
    const attachment = ticketMail.attachments.find((file) => file.filename === `ingresso-${orderNumber}.png`)!;
    const mailed = (await system.catcher.messages()).find((message) => message.id === ticketMail.id)!;
    expect(attachment).toBeDefined();
    const png = await fetch(`${system.catcher.httpUrl}/api/email/${mailed.id}/attachment/${attachment.filename}`);
    const qrText = readQrCode(Buffer.from(await png.arrayBuffer()));
    expect(qrText).toMatch(/^T1\./);

    const first = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
    expect(first.body).toMatchObject({ success: true, code: 'valid', userName: buyer.name });
    const second = await call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: qrText } });
    expect(second.body).toMatchObject({ success: false, code: 'already_used' });
    expect(second.body.message).toMatch(/^Ingresso já utilizado em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}$/);
    await waitFor(async () => {
      const { body } = await call('GET', '/api/orders?page=1', { token: buyer.token });
      return body.orders.find((candidate: { id: string }) => candidate.id === orderId)?.qrCodeUsed === true;
    });
    await system.catcher.clear();
  }

  const event = await call('GET', `/api/events/${eventId}`);
  expect(event.body).toMatchObject({ currentAttendees: 3, remaining: 7 });
});

test('no hold outlives the event: a boleto for an event 3 h away is refused, a PIX for one 30 min away ends by its start', async () => {
  const buyer = await verifiedBuyer(system);
  const threeHours = await adminEvent(system, {
    maxAttendees: 10,
    date: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  });
  const boleto = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId: threeHours.eventId, paymentMethod: 'boleto' },
  });
  expect(boleto.status).toBe(422);
  expect(boleto.body).toEqual({ message: ordersMessages.boletoTooLate });
  expect((await system.call('GET', `/api/events/${threeHours.eventId}`)).body).toMatchObject({ remaining: 10 });

  const halfHour = await adminEvent(system, {
    maxAttendees: 10,
    date: new Date(Date.now() + 30 * 60_000).toISOString(),
  });
  const pix = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId: halfHour.eventId, paymentMethod: 'pix' },
  });
  expect(pix.status).toBe(201);
  const event = await system.call('GET', `/api/events/${halfHour.eventId}`);
  expect(Date.parse(pix.body.payment.expiresAt)).toBeLessThanOrEqual(Date.parse(event.body.date));
});

test('the buyer cannot see, cancel or check another buyer’s order, and a non-admin cannot verify', async () => {
  const [owner, stranger] = [await verifiedBuyer(system), await verifiedBuyer(system)];
  const [event] = (await system.call('GET', '/api/events')).body as { id: string }[];
  expect(event).toBeDefined();
  const bought = await system.call('POST', '/api/orders', {
    token: owner.token,
    body: { eventId: event!.id, paymentMethod: 'pix' },
  });
  expect(bought.status).toBe(201);
  const orderId = bought.body.order.id as string;
  expect((await system.call('GET', '/api/orders?page=1', { token: stranger.token })).body.orders).toEqual([]);
  for (const [method, path] of [
    ['DELETE', `/api/orders/${orderId}/cancel`],
    ['POST', `/api/orders/${orderId}/check-status`],
  ] as const) {
    expect(await system.call(method, path, { token: stranger.token })).toEqual({
      status: 404,
      body: { message: 'Pedido não encontrado' },
    });
  }
  const verify = await system.call('POST', '/api/verify-ticket', { token: owner.token, body: { qrCodeData: 'T1.x' } });
  expect(verify.status).toBe(403);
});

test("an order.paid forged with mail's key issues no ticket: its consumers refuse it and keep it for operators", async () => {
  const { call, sandbox, orders } = system;
  const { eventId } = await adminEvent(system, { maxAttendees: 10 });
  const payer = await verifiedBuyer(system);
  const waiting = await verifiedBuyer(system);
  const buy = async (token: string) =>
    (await call('POST', '/api/orders', { token, body: { eventId, paymentMethod: 'pix' } })).body.order;
  // A real sale, for the shape of a real order.paid; and an order still waiting for its PIX.
  const paid = await buy(payer.token);
  sandbox.confirm(paid.asaasPaymentId);
  const real = await waitFor(() => orders.db('outbox').where({ topic: 'order.paid', key: paid.id }).first());
  const pending = await buy(waiting.token);

  const forgery = (): Envelope => ({
    ...(real.envelope as Envelope),
    id: randomUUID(),
    key: pending.id,
    payload: {
      ...(real.envelope.payload as object),
      orderId: pending.id,
      orderNumber: pending.orderNumber,
    },
  });
  const mail = testKeyRing.keys('mail');
  // Mail as itself, which may not publish order.paid; and mail claiming to be orders, with its own key.
  const asMail = signEnvelope(mail, forgery());
  const posing = { ...forgery(), producer: 'orders' };
  const asOrders = { ...posing, signature: signBytes(mail, envelopeSigningBytes(posing)) };
  const bus = createPostgresTransport({
    url: TEST_DATABASE_URL,
    schema: system.busSchema,
    logger: createLogger('forger', 'silent'),
  });
  const tickets = createDb(TEST_DATABASE_URL, system.ticketsSchema, 2);
  try {
    await bus.publish(
      [asMail, asOrders].map((envelope) => ({ topic: 'order.paid', key: pending.id, value: JSON.stringify(envelope) })),
    );
    const letters = await waitFor(async () => {
      const rows = await tickets('dead_letters').where({ topic: 'order.paid' });
      const forged = rows.filter((row) => [asMail.id, asOrders.id].some((id) => row.envelope.raw?.includes(id)));
      return forged.length === 2 && forged;
    });
    expect(letters.map((row) => row.error).sort()).toEqual([
      'refused: mail may not publish order.paid',
      'refused: the signature does not match the key of orders',
    ]);
    expect(await tickets('tickets').where({ order_id: pending.id })).toEqual([]);
    expect(await tickets('tickets').where({ order_id: paid.id })).toHaveLength(1);
    const { body } = await call('GET', '/api/orders?page=1', { token: waiting.token });
    expect(body.orders.find((order: { id: string }) => order.id === pending.id)).toMatchObject({ status: 'pending' });
  } finally {
    await bus.close();
    await tickets.destroy();
  }
});
