import { waitFor } from '@ticketing/platform/testing';
import {
  WEBHOOK_TOKEN,
  adminEvent,
  doorRefusesAsCancelled,
  orderOf,
  paidTicket,
  startSystem,
  verifiedBuyer,
} from './support.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

test('a refund or a chargeback at the provider cancels the ticket: the door answers cancelled, the spot is free again', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);

  for (const [action, subject] of [
    ['refund', 'Seu pedido foi reembolsado: Workshop de Farmácia Clínica'],
    ['chargeback', 'Pedido cancelado por contestação do pagamento: Workshop de Farmácia Clínica'],
  ] as const) {
    const ticket = await paidTicket(system, buyer, eventId);
    expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({ remaining: 4 });

    // Refunded from the provider's dashboard (or disputed by the card holder): the provider's webhook is the only news.
    if (action === 'chargeback') system.sandbox.chargeback(ticket.asaasPaymentId);
    else {
      const refunded = await fetch(`${system.sandbox.apiUrl}/payments/${ticket.asaasPaymentId}/refund`, {
        method: 'POST',
        headers: { access_token: 'chave-do-painel' },
      });
      expect(refunded.status).toBe(200);
    }

    await waitFor(async () => (await orderOf(system, buyer, ticket.orderId))?.status === 'refunded');
    const door = await doorRefusesAsCancelled(system, adminToken, ticket.qrText);
    expect(door).toMatchObject({ success: false, code: 'cancelled', message: 'Ingresso cancelado' });
    await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 5);
    await system.mailTo(buyer.email, subject);
    // A used-ticket reset cannot bring it back.
    const reset = await system.call('POST', `/api/reset-ticket/${ticket.orderId}`, { token: adminToken });
    expect(reset.status).toBe(409);
  }
});

test('an administrator refunds a paid order (ten clicks at once): one provider refund, the door answers cancelled, the buyer is e-mailed', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);

  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      system.call('POST', `/api/admin/orders/${ticket.orderId}/refund`, {
        token: adminToken,
        body: { reason: 'Evento remarcado a pedido do comprador' },
      }),
    ),
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([202, ...Array(9).fill(409)]);
  expect(answers.find((answer) => answer.status === 202)!.body.order).toMatchObject({
    id: ticket.orderId,
    status: 'refunded',
    refund: { reason: 'refund' },
  });

  // The provider gave the money back once.
  const refundCalls = () =>
    system.sandbox.requests.filter(
      (call) => call.method === 'POST' && call.path === `/payments/${ticket.asaasPaymentId}/refund`,
    );
  expect(refundCalls()).toHaveLength(1);
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });

  const door = await doorRefusesAsCancelled(system, adminToken, ticket.qrText);
  expect(door).toMatchObject({ success: false, code: 'cancelled', message: 'Ingresso cancelado' });
  await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 5);
  await system.mailTo(buyer.email, 'Seu pedido foi reembolsado: Workshop de Farmácia Clínica');
  expect(await orderOf(system, buyer, ticket.orderId)).toMatchObject({
    status: 'refunded',
    refund: { reason: 'refund', pending: false },
    canWithdraw: false,
  });
  // The provider's PAYMENT_REFUNDED that followed changed nothing more.
  await waitFor(() => system.sandbox.pendingWebhooks === 0);
  expect(refundCalls()).toHaveLength(1);
  expect(
    system.catcher
      .messages()
      .filter((message) => message.to.includes(buyer.email) && /reembolsado/.test(message.subject)),
  ).toHaveLength(1);
});

test('a buyer withdraws within 7 days of the purchase: money back, ticket cancelled, the e-mail answers the request', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);
  expect(await orderOf(system, buyer, ticket.orderId)).toMatchObject({ canWithdraw: true });

  const withdrawn = await system.call('POST', `/api/orders/${ticket.orderId}/withdraw`, { token: buyer.token });
  expect(withdrawn.status).toBe(202);
  expect(withdrawn.body.order).toMatchObject({ status: 'refunded', refund: { reason: 'withdrawal' } });
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });

  await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 5);
  const mail = await system.mailTo(buyer.email, 'Sua desistência foi atendida: Workshop de Farmácia Clínica');
  expect(mail.text).toContain('Seu pedido de desistência foi atendido');
  await doorRefusesAsCancelled(system, adminToken, ticket.qrText);
});

test('a forged webhook (right token, R$ 0,01 "received") leaves the order pending and issues nothing', async () => {
  const { eventId } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  const { id: orderId, asaasPaymentId } = bought.body.order;

  const forged = await fetch(`${system.gatewayUrl}/api/payments/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'asaas-access-token': WEBHOOK_TOKEN },
    body: JSON.stringify({
      id: 'evt_forjado_1',
      event: 'PAYMENT_RECEIVED',
      dateCreated: '2026-11-25 10:00:00',
      payment: { id: asaasPaymentId, status: 'RECEIVED', value: 0.01, externalReference: orderId, billingType: 'PIX' },
    }),
  });
  expect(forged.status).toBe(200);

  // The provider says PENDING: nothing moves, and "check status" says the same.
  const checked = await system.call('POST', `/api/orders/${orderId}/check-status`, { token: buyer.token });
  expect(checked.status).toBe(200);
  const order = await orderOf(system, buyer, orderId);
  expect(order).toMatchObject({ status: 'pending', qrCodeData: null });
  expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({ remaining: 4 });
});
