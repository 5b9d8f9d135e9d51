import { readQrCode, waitFor } from '@ticketing/platform/testing';
import { WEBHOOK_TOKEN, adminEvent, startSystem, verifiedBuyer } from './support.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;

async function orderOf(buyer: Buyer, orderId: string) {
  const { body } = await system.call('GET', '/api/orders?page=1', { token: buyer.token });
  return body.orders.find((order: { id: string }) => order.id === orderId);
}

async function paidTicket(buyer: Buyer, eventId: string) {
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  expect(bought.status).toBe(201);
  const { id: orderId, asaasPaymentId } = bought.body.order;
  system.sandbox.confirm(asaasPaymentId);
  const paid = await waitFor(async () => {
    const order = await orderOf(buyer, orderId);
    return order?.status === 'paid' && order.qrCodeData ? order : undefined;
  });
  // The order shows the QR code as an image; the door reads the text in it.
  const png = Buffer.from((paid.qrCodeData as string).split(',')[1]!, 'base64');
  return { orderId, asaasPaymentId: asaasPaymentId as string, qrText: readQrCode(png) };
}

test('a refund or a chargeback at the provider cancels the ticket: the door answers cancelled, the spot is free again', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);

  for (const [action, subject] of [
    ['refund', 'Seu pedido foi reembolsado: Workshop de Farmácia Clínica'],
    ['chargeback', 'Pedido cancelado por contestação do pagamento: Workshop de Farmácia Clínica'],
  ] as const) {
    const ticket = await paidTicket(buyer, eventId);
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

    await waitFor(async () => (await orderOf(buyer, ticket.orderId))?.status === 'refunded');
    const door = await waitFor(async () => {
      const answer = await system.call('POST', '/api/verify-ticket', {
        token: adminToken,
        body: { qrCodeData: ticket.qrText },
      });
      return answer.body.code === 'cancelled' ? answer : undefined;
    });
    expect(door.body).toMatchObject({ success: false, code: 'cancelled', message: 'Ingresso cancelado' });
    await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 5);
    await system.mailTo(buyer.email, subject);
    // A used-ticket reset cannot bring it back.
    const reset = await system.call('POST', `/api/reset-ticket/${ticket.orderId}`, { token: adminToken });
    expect(reset.status).toBe(409);
  }
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
  const order = await orderOf(buyer, orderId);
  expect(order).toMatchObject({ status: 'pending', qrCodeData: null });
  expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({ remaining: 4 });
});
