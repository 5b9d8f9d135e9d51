import { expireOverdueOrders } from '@ticketing/orders';
import { waitFor } from '@ticketing/testkit';
import { adminEvent, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

const orderOf = async (token: string, orderId: string) => {
  const { body } = await system.call('GET', '/api/orders?page=1', { token });
  return body.orders.find((order: { id: string }) => order.id === orderId);
};

test('webhooks delivered three times each and out of order still make one paid order, one ticket, one e-mail', async () => {
  const { eventId } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'boleto' },
  });
  const { id: orderId, asaasPaymentId } = bought.body.order;

  // The provider sends OVERDUE then RECEIVED; they arrive newest first, and every delivery three times.
  system.sandbox.faults.webhookCopies = 3;
  system.sandbox.faults.reorderNext = 2;
  system.sandbox.overdue(asaasPaymentId);
  system.sandbox.confirm(asaasPaymentId);
  await waitFor(async () => (await orderOf(buyer.token, orderId))?.qrCodeData);
  await waitFor(() => system.sandbox.pendingWebhooks === 0 && system.sandbox.deliveries.length >= 6);
  system.sandbox.faults.webhookCopies = 1;

  const ticketMails = await waitFor(() => {
    const found = system.catcher
      .messages()
      .filter((m) => m.to.includes(buyer.email) && m.subject.startsWith('Seu ingresso'));
    return found.length > 0 && found;
  });
  // Every delivery has been answered: nothing more can arrive.
  expect((await orderOf(buyer.token, orderId)).status).toBe('paid');
  expect(ticketMails).toHaveLength(1);
  expect(await system.orders.db('outbox').where({ topic: 'order.paid', key: orderId })).toHaveLength(1);
});

test('a boleto paid after its order expired, with the spot sold meanwhile, is refunded to the account the payer gives, and the buyer is told', async () => {
  const { eventId } = await adminEvent(system, { maxAttendees: 1 });
  const [late, onTime] = [await verifiedBuyer(system), await verifiedBuyer(system)];
  const bought = await system.call('POST', '/api/orders', {
    token: late.token,
    body: { eventId, paymentMethod: 'boleto' },
  });
  const { id: orderId, asaasPaymentId } = bought.body.order;

  // The boleto's window passes: the order expires and its spot goes back on sale.
  await expireOverdueOrders(system.orders, { now: new Date(Date.now() + 30 * 86_400_000) });
  await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 1);
  expect((await orderOf(late.token, orderId)).status).toBe('expired');
  const taken = await system.call('POST', '/api/orders', {
    token: onTime.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  expect(taken.status).toBe(201);

  // The bank pays the boleto anyway: no spot is left, so the money goes back.
  system.sandbox.confirm(asaasPaymentId);
  await waitFor(async () => (await orderOf(late.token, orderId)).status === 'refunded');
  // A boleto goes back to the bank account the payer gives on the provider's page: the e-mail and the order link it.
  const { refund: waiting } = await waitFor(async () => {
    const order = await orderOf(late.token, orderId);
    return order.refund?.status === 'awaiting_bank_details' && order;
  });
  const refund = await system.mailTo(late.email, 'Seu pagamento foi estornado');
  expect(refund.text).toContain('R$\u00a0155,00');
  expect(refund.text).toContain(waiting.bankDetailsUrl);
  expect(system.sandbox.payments.get(asaasPaymentId)?.status).toBe('RECEIVED');
  expect((await system.call('GET', `/api/events/${eventId}`)).body).toMatchObject({
    currentAttendees: 1,
    remaining: 0,
  });
});
