import { waitFor } from '@ticketing/testkit';
import {
  adminEvent,
  doorRefusesAsCancelled,
  orderOf,
  paidTicket,
  redemptionForm,
  startSystem,
  verifiedBuyer,
} from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

const SUBJECT = 'Evento cancelado: Workshop de Farmácia Clínica';

/** A guest redeems a free courtesy of the event; answers the e-mail typed, where its ticket and news go. */
async function courtesyHolder(eventId: string, adminToken: string) {
  const link = await system.call('POST', '/api/courtesy-links', {
    token: adminToken,
    body: { eventId, ticketCount: 1, overridePrice: null },
  });
  expect(link.status).toBe(201);
  const guest = await verifiedBuyer(system);
  const email = `convidada.${Date.now()}@parceiro.example.com.br`;
  const redeemed = await system.call('POST', '/api/courtesy/redeem', {
    token: guest.token,
    body: redemptionForm(guest, link.body.code, email),
  });
  expect(redeemed.status).toBe(201);
  await system.mailTo(email, 'Seu ingresso: Workshop de Farmácia Clínica');
  const { body } = await system.call('GET', '/api/orders?page=1', { token: guest.token });
  return { guest, email, orderId: body.orders[0].id as string };
}

test('an administrator cancels an event: the buyer is refunded through the provider, every holder is e-mailed, a pending order is cancelled', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 10 });
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);
  const courtesy = await courtesyHolder(eventId, adminToken);
  const waiting = await verifiedBuyer(system);
  const pending = await system.call('POST', '/api/orders', {
    token: waiting.token,
    body: { eventId, paymentMethod: 'boleto' },
  });
  expect(pending.status).toBe(201);
  const pendingId = pending.body.order.id as string;

  const cancelled = await system.call('POST', `/api/admin/events/${eventId}/cancel`, {
    token: adminToken,
    body: { reason: 'O palestrante principal não poderá comparecer.' },
  });
  expect(cancelled.status).toBe(202);

  // The paid buyer: the provider gave the money back once, the order is refunded, the door turns the ticket away.
  await waitFor(async () => {
    const order = await orderOf(system, buyer, ticket.orderId);
    return order?.status === 'refunded' && order.refund?.pending === false;
  });
  expect(await orderOf(system, buyer, ticket.orderId)).toMatchObject({ refund: { reason: 'event_cancelled' } });
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });
  const refundCalls = system.sandbox.requests.filter(
    (call) => call.method === 'POST' && call.path === `/payments/${ticket.asaasPaymentId}/refund`,
  );
  expect(refundCalls).toHaveLength(1);
  const paidMail = await system.mailTo(buyer.email, SUBJECT);
  expect(paidMail.text).toContain('foi cancelado pelos organizadores');
  expect(paidMail.text).toContain(
    'O valor de R$\u00a0155,00 será estornado para a mesma forma de pagamento da compra.',
  );
  const door = await doorRefusesAsCancelled(system, adminToken, ticket.qrText);
  expect(door).toMatchObject({ success: false, code: 'cancelled' });

  // The courtesy holder: told at the e-mail they gave, with no refund to speak of.
  const courtesyMail = await system.mailTo(courtesy.email, SUBJECT);
  expect(courtesyMail.text).toContain('não dá mais acesso ao evento');
  expect(courtesyMail.text).not.toContain('estornado');
  expect(await orderOf(system, courtesy.guest, courtesy.orderId)).toMatchObject({
    status: 'refunded',
    amount: '0.00',
    refund: { reason: 'event_cancelled', pending: false },
  });

  // The order waiting for payment: cancelled, and its boleto withdrawn at the provider.
  await waitFor(async () => (await orderOf(system, waiting, pendingId))?.status === 'cancelled');
  await waitFor(() => system.sandbox.payments.get(pending.body.order.asaasPaymentId)?.deleted === true || undefined);
});
