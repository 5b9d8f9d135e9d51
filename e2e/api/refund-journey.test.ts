import { waitFor } from '@ticketing/testkit';
import { refundMessages, type DoorTicket } from '@ticketing/proto';
import {
  WEBHOOK_TOKEN,
  adminEvent,
  doorRefusesAsCancelled,
  orderOf,
  paidTicket,
  staffMember,
  startSystem,
  verifiedBuyer,
} from '../../scripts/lib/system.ts';

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

test('a buyer withdraws within 7 days of the purchase: the ticket is refused at the door first, then the money goes back and the e-mail answers the request', async () => {
  const { eventId, adminToken } = await adminEvent(system, { maxAttendees: 5 });
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);
  expect(await orderOf(system, buyer, ticket.orderId)).toMatchObject({
    canWithdraw: true,
    withdrawalRequestedAt: null,
  });

  const withdrawn = await system.call('POST', `/api/orders/${ticket.orderId}/withdraw`, { token: buyer.token });
  expect(withdrawn.status).toBe(202);
  expect(withdrawn.body).toMatchObject({
    message: refundMessages.withdrawalRequested,
    order: { status: 'paid', refund: null, canWithdraw: false, withdrawalRequestedAt: expect.any(String) },
  });

  // The ticket is voided before any money moves: the door's phones hear it (without anyone scanning it, which
  // would admit it first), the door refuses it, and the provider gives the money back.
  const staffer = await staffMember(system, adminToken, ['doorStaff'], { doorEvents: [eventId] });
  await waitFor(async () => {
    const { body } = await system.call('GET', `/api/door/events/${eventId}/tickets`, { token: staffer.token });
    return (body.tickets as DoorTicket[] | undefined)?.some(
      (listed) => listed.orderId === ticket.orderId && listed.status === 'cancelled',
    );
  });
  const door = await system.call('POST', '/api/verify-ticket', {
    token: staffer.token,
    body: { qrCodeData: ticket.qrText, eventId },
  });
  expect(door.body).toMatchObject({ success: false, code: 'cancelled', message: 'Ingresso cancelado' });
  const refunded = await waitFor(async () => {
    const order = await orderOf(system, buyer, ticket.orderId);
    return order?.status === 'refunded' && order.refund?.pending === false && order;
  });
  expect(refunded).toMatchObject({ refund: { reason: 'withdrawal' }, withdrawalRequestedAt: null, canWithdraw: false });
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });

  await waitFor(async () => (await system.call('GET', `/api/events/${eventId}`)).body.remaining === 5);
  const mail = await system.mailTo(buyer.email, 'Sua desistência foi atendida: Workshop de Farmácia Clínica');
  expect(mail.text).toContain('Seu pedido de desistência foi atendido');
  await doorRefusesAsCancelled(system, adminToken, ticket.qrText);
});

test('ten withdrawals racing ten admissions at the door: each order ends admitted and paid, or refused at the door and refunded, never admitted and refunded', async () => {
  const { eventId, adminToken } = await adminEvent(system, {
    maxAttendees: 20,
    date: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  });
  // Two buyers of five tickets each: within each account's purchase budget.
  const buyers = [await verifiedBuyer(system), await verifiedBuyer(system)];
  const bought = [];
  for (let i = 0; i < 10; i++) {
    const buyer = buyers[i % 2]!;
    bought.push({ buyer, ticket: await paidTicket(system, buyer, eventId) });
  }

  // Fired together: whichever reaches the ticket first wins; the outcome of each may go either way.
  const raced = await Promise.all(
    bought.map(async ({ buyer, ticket }) => {
      const [withdrawn, scanned] = await Promise.all([
        system.call('POST', `/api/orders/${ticket.orderId}/withdraw`, { token: buyer.token }),
        system.call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData: ticket.qrText, eventId } }),
      ]);
      return { buyer, ticket, withdrawn, scanned };
    }),
  );

  const outcomes = { admitted: 0, refunded: 0 };
  for (const { buyer, ticket, withdrawn, scanned } of raced) {
    expect([202, 409]).toContain(withdrawn.status);
    // Settled: no withdrawal waiting, and any refund given back.
    const order = await waitFor(async () => {
      const found = await orderOf(system, buyer, ticket.orderId);
      return found?.withdrawalRequestedAt === null && found.refund?.pending !== true && found;
    });
    const door = await system.call('POST', '/api/verify-ticket', {
      token: adminToken,
      body: { qrCodeData: ticket.qrText, eventId },
    });
    if (scanned.body.code === 'valid') {
      outcomes.admitted++;
      expect(order).toMatchObject({ status: 'paid', refund: null, canWithdraw: false });
      expect(door.body).toMatchObject({ success: false, code: 'already_used' });
      expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'RECEIVED' });
    } else {
      outcomes.refunded++;
      expect(scanned.body).toMatchObject({ success: false, code: 'cancelled' });
      expect(withdrawn.status).toBe(202);
      expect(order).toMatchObject({ status: 'refunded', refund: { reason: 'withdrawal', pending: false } });
      expect(door.body).toMatchObject({ success: false, code: 'cancelled' });
      expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });
    }
  }
  // Which side wins each race depends on timing; tickets' own tests prove both outcomes one by one.
  expect(outcomes.admitted + outcomes.refunded).toBe(10);

  // A withdrawal accepted by orders but beaten at the door by the admission is refused by e-mail.
  const subject = 'Não foi possível concluir sua desistência: Workshop de Farmácia Clínica';
  for (const buyer of buyers) {
    const refusedLate = raced.filter(
      (race) => race.buyer === buyer && race.withdrawn.status === 202 && race.scanned.body.code === 'valid',
    ).length;
    if (refusedLate > 0) await system.mailTo(buyer.email, subject, refusedLate - 1);
    const mails = system.catcher
      .messages()
      .filter((message) => message.to.includes(buyer.email) && message.subject === subject);
    expect(mails).toHaveLength(refusedLate);
    for (const mail of mails) expect(mail.text).toContain('o pedido continua confirmado e nenhum valor foi estornado');
  }
});

test('a ticket admitted at the door 3 h before the start cannot be withdrawn: 409 saying why; the back office still refunds it', async () => {
  const { eventId, adminToken } = await adminEvent(system, {
    maxAttendees: 5,
    date: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  });
  const buyer = await verifiedBuyer(system);
  const ticket = await paidTicket(system, buyer, eventId);
  const admitted = await system.call('POST', '/api/verify-ticket', {
    token: adminToken,
    body: { qrCodeData: ticket.qrText, eventId },
  });
  expect(admitted.body).toMatchObject({ success: true, code: 'valid' });
  await waitFor(async () => (await orderOf(system, buyer, ticket.orderId))?.qrCodeUsed === true);

  const withdrawn = await system.call('POST', `/api/orders/${ticket.orderId}/withdraw`, { token: buyer.token });
  expect(withdrawn.status).toBe(409);
  expect(withdrawn.body).toEqual({ message: refundMessages.withdrawalAfterEntry });
  expect(await orderOf(system, buyer, ticket.orderId)).toMatchObject({ status: 'paid', canWithdraw: false });
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'RECEIVED' });

  const refunded = await system.call('POST', `/api/admin/orders/${ticket.orderId}/refund`, {
    token: adminToken,
    body: { reason: 'Comprador passou mal durante o evento' },
  });
  expect(refunded.status).toBe(202);
  expect(system.sandbox.payments.get(ticket.asaasPaymentId)).toMatchObject({ status: 'REFUNDED' });
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
