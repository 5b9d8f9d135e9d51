import { randomUUID } from 'node:crypto';
import type { ChargeView } from '@ticketing/proto';
import { paymentsMessages } from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, WEBHOOK_TOKEN, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments();
});
afterAll(() => payments.stop());
afterEach(() => {
  Object.assign(payments.sandbox.faults, { webhookCopies: 1, reorderNext: 0, webhookDelayMs: 0 });
});

async function createdCharge(method: 'pix' | 'boleto' | 'credit_card' = 'pix') {
  const orderId = randomUUID();
  const response = await payments.putCharge(orderId, chargeRequest({ method }));
  expect(response.status).toBe(200);
  const view = (await response.json()) as ChargeView;
  await payments.webhooksSettled(); // PAYMENT_CREATED is in
  return { orderId, paymentId: view.paymentId };
}

const notification = (event: string, payment: Record<string, unknown>) => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  event,
  dateCreated: '2026-03-10 14:30:00',
  payment: { object: 'payment', ...payment },
});

const eventTypes = async (orderId: string) => (await payments.events(orderId)).map((event) => event.type);

/** Makes the next `count` outbox writes in the service's schema fail, as a database outage would. */
async function failOutboxWrites(count: number): Promise<() => Promise<void>> {
  const db = payments.service.db;
  const schema = payments.service.schema;
  await db.raw(`create sequence ??.outbox_failures`, [schema]);
  await db.raw(
    `create function ??.fail_outbox() returns trigger language plpgsql as $$
     begin
       if nextval('${schema}.outbox_failures') <= ${count} then raise exception 'injected outbox failure'; end if;
       return new;
     end $$`,
    [schema],
  );
  await db.raw(`create trigger fail_outbox before insert on ??.outbox for each row execute function ??.fail_outbox()`, [
    schema,
    schema,
  ]);
  return async () => {
    await db.raw(`drop trigger fail_outbox on ??.outbox`, [schema]);
    await db.raw(`drop function ??.fail_outbox()`, [schema]);
    await db.raw(`drop sequence ??.outbox_failures`, [schema]);
  };
}

test('a missing or wrong token is a 401 and nothing is stored', async () => {
  const { orderId, paymentId } = await createdCharge();
  const body = notification('PAYMENT_RECEIVED', {
    id: paymentId,
    status: 'RECEIVED',
    value: 155,
    externalReference: orderId,
  });
  for (const token of [null, '', 'token-errado', `${WEBHOOK_TOKEN}x`, WEBHOOK_TOKEN.slice(0, -1)]) {
    const response = await payments.notify(body, token);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: paymentsMessages.invalidWebhookToken });
  }
  expect(await payments.service.db('webhook_events').where({ id: body.id })).toEqual([]);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'pending' });
  expect(await payments.events(orderId)).toEqual([]);
  expect(payments.logLines('webhook token rejected').length).toBeGreaterThanOrEqual(5);
  expect(JSON.stringify(payments.logs.lines)).not.toContain(WEBHOOK_TOKEN);
});

test('each event 3 times, out of order, with storage failing at first: one payment.confirmed, the charge paid', async () => {
  const { orderId, paymentId } = await createdCharge('boleto');
  const restore = await failOutboxWrites(2);
  try {
    Object.assign(payments.sandbox.faults, { webhookCopies: 3, reorderNext: 2 });
    payments.sandbox.overdue(paymentId); // held back…
    payments.sandbox.confirm(paymentId); // …and delivered after this one
    await payments.webhooksSettled();
  } finally {
    await restore();
  }
  const deliveries = payments.sandbox.deliveries.filter((delivery) => delivery.paymentId === paymentId);
  const received = deliveries.filter((delivery) => delivery.event === 'PAYMENT_RECEIVED');
  expect(received.filter((delivery) => delivery.status === 500)).toHaveLength(2);
  expect(received.filter((delivery) => delivery.status === 200)).toHaveLength(3);
  expect(deliveries.filter((delivery) => delivery.event === 'PAYMENT_OVERDUE' && delivery.status === 200)).toHaveLength(
    3,
  );
  const firstOverdue = deliveries.findIndex((delivery) => delivery.event === 'PAYMENT_OVERDUE');
  expect(deliveries.findIndex((delivery) => delivery.event === 'PAYMENT_RECEIVED')).toBeLessThan(firstOverdue);

  expect(await payments.events(orderId)).toEqual([
    {
      type: 'payment.confirmed',
      key: orderId,
      payload: {
        orderId,
        paymentId,
        providerStatus: 'RECEIVED',
        value: '155.00',
        // What the provider pays out after its fee (the sandbox keeps R$ 0,99).
        netValue: '154.01',
        paidAt: expect.any(String),
      },
    },
  ]);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid', provider_status: 'RECEIVED' });
  const rows = await payments.webhookRows(paymentId);
  expect(rows.map((row) => [row.event, row.outcome])).toEqual([
    ['PAYMENT_CREATED', 'ignored'],
    ['PAYMENT_RECEIVED', 'applied'],
    ['PAYMENT_OVERDUE', 'stale'],
  ]);
  expect(rows[1]!.payload).toMatchObject({ event: 'PAYMENT_RECEIVED', payment: { id: paymentId, status: 'RECEIVED' } });
  expect(payments.logLines('webhook duplicate ignored').filter((line) => line.paymentId === paymentId)).toHaveLength(4);
  expect(payments.logLines('unhandled error')).toHaveLength(2);
});

test('a boleto paid after it went overdue: payment.overdue, then payment.confirmed', async () => {
  const { orderId, paymentId } = await createdCharge('boleto');
  payments.sandbox.overdue(paymentId);
  await waitFor(async () => (await eventTypes(orderId)).length === 1);
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await eventTypes(orderId)).length === 2);
  expect(await payments.events(orderId)).toEqual([
    { type: 'payment.overdue', key: orderId, payload: { orderId, paymentId } },
    expect.objectContaining({
      type: 'payment.confirmed',
      payload: expect.objectContaining({ providerStatus: 'RECEIVED' }),
    }),
  ]);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid' });
});

test('confirmed, then a late OVERDUE or DELETED: no payment.failed, the charge stays paid', async () => {
  const { orderId, paymentId } = await createdCharge('credit_card');
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  const payment = { id: paymentId, value: 155, externalReference: orderId };
  for (const late of [
    notification('PAYMENT_OVERDUE', { ...payment, status: 'OVERDUE' }),
    notification('PAYMENT_DELETED', { ...payment, status: 'PENDING', deleted: true }),
    notification('PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', { ...payment, status: 'PENDING' }),
  ]) {
    const response = await payments.notify(late);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: 'stale' });
  }
  expect(await eventTypes(orderId)).toEqual(['payment.confirmed']);
  expect((await payments.events(orderId))[0]!.payload).toMatchObject({ providerStatus: 'CONFIRMED' });
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid', provider_status: 'CONFIRMED' });
  expect(payments.logLines('stale provider update ignored').filter((line) => line.orderId === orderId)).toHaveLength(3);
});

test('a pending charge deleted at the provider publishes payment.failed once; a refusal the provider does not show changes nothing', async () => {
  const deleted = await createdCharge();
  const response = await fetch(`${payments.sandbox.apiUrl}/payments/${deleted.paymentId}`, {
    method: 'DELETE',
    headers: { access_token: '$aact_hmlg_test_key' },
  });
  expect(response.status).toBe(200);
  await waitFor(async () => (await eventTypes(deleted.orderId)).length === 1);
  expect(await payments.events(deleted.orderId)).toEqual([
    {
      type: 'payment.failed',
      key: deleted.orderId,
      payload: { orderId: deleted.orderId, paymentId: deleted.paymentId, providerStatus: 'DELETED' },
    },
  ]);
  expect(await payments.chargeRow(deleted.orderId)).toMatchObject({ status: 'failed', provider_status: 'DELETED' });

  // The card can still be paid on the invoice page while the provider shows the payment pending.
  const refused = await createdCharge('credit_card');
  const body = notification('PAYMENT_REPROVED_BY_RISK_ANALYSIS', { id: refused.paymentId, status: 'PENDING' });
  for (let i = 0; i < 2; i++) {
    const answer = await payments.notify(body);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: i === 0 ? 'unchanged' : 'duplicate' });
  }
  expect(await payments.events(refused.orderId)).toEqual([]);
  expect(await payments.chargeRow(refused.orderId)).toMatchObject({ status: 'pending', provider_status: 'PENDING' });
});

test('a forged PAYMENT_RECEIVED of R$ 0,01 confirms nothing; the real payment, read from the provider, does', async () => {
  const { orderId, paymentId } = await createdCharge();
  const forged = notification('PAYMENT_RECEIVED', {
    id: paymentId,
    status: 'RECEIVED',
    value: 0.01,
    externalReference: orderId,
  });
  const before = payments.calls('GET', `/payments/${paymentId}`).length;
  const response = await payments.notify(forged);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, outcome: 'unchanged' });
  expect(payments.calls('GET', `/payments/${paymentId}`)).toHaveLength(before + 1);
  expect(await payments.events(orderId)).toEqual([]);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'pending',
    provider_status: 'PENDING',
    paid_at: null,
    review_reason: null,
  });

  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await eventTypes(orderId)).length === 1);
  expect(await payments.events(orderId)).toEqual([
    {
      type: 'payment.confirmed',
      key: orderId,
      payload: {
        orderId,
        paymentId,
        providerStatus: 'RECEIVED',
        value: '155.00',
        netValue: '154.01',
        paidAt: expect.any(String),
      },
    },
  ]);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid', provider_status: 'RECEIVED' });
});

test('a payment for another order or another amount is held for review, logged and counted, never confirmed', async () => {
  const mine = await createdCharge();
  const other = await createdCharge();
  const counted = (reason: string) => payments.metric('payments_mismatch_total', { reason });
  const [referenceBefore, valueBefore] = [
    await counted('external_reference_mismatch'),
    await counted('value_mismatch'),
  ];

  // The provider's payment of this charge names the other order.
  payments.sandbox.payments.get(mine.paymentId)!.externalReference = other.orderId;
  payments.sandbox.confirm(mine.paymentId);
  await payments.webhooksSettled();
  const received = (paymentId: string) =>
    payments.sandbox.deliveries.filter((d) => d.paymentId === paymentId && d.event === 'PAYMENT_RECEIVED');
  expect(received(mine.paymentId).map((delivery) => delivery.status)).toEqual([200]);
  expect((await payments.webhookRows(mine.paymentId)).map((row) => [row.event, row.outcome])).toEqual([
    ['PAYMENT_CREATED', 'ignored'],
    ['PAYMENT_RECEIVED', 'review'],
  ]);
  expect(await payments.chargeRow(mine.orderId)).toMatchObject({
    status: 'pending',
    review_reason: 'external_reference_mismatch',
  });
  expect(await payments.chargeRow(other.orderId)).toMatchObject({ status: 'pending', review_reason: null });
  expect(await payments.events(mine.orderId)).toEqual([]);
  expect(await payments.events(other.orderId)).toEqual([]);
  expect(await counted('external_reference_mismatch')).toBe(referenceBefore + 1);
  expect(payments.logLines('provider payment does not match the charge: held for review')).toContainEqual(
    expect.objectContaining({
      level: 50,
      orderId: mine.orderId,
      paymentId: mine.paymentId,
      expected: mine.orderId,
      received: other.orderId,
    }),
  );

  // The provider's payment of the other charge was changed to R$ 0,01 before it was paid.
  payments.sandbox.payments.get(other.paymentId)!.value = 0.01;
  payments.sandbox.confirm(other.paymentId);
  await payments.webhooksSettled();
  expect(await payments.chargeRow(other.orderId)).toMatchObject({ status: 'pending', review_reason: 'value_mismatch' });
  expect(await payments.events(other.orderId)).toEqual([]);
  expect(await counted('value_mismatch')).toBe(valueBefore + 1);
  expect(payments.logLines('provider payment does not match the charge: held for review')).toContainEqual(
    expect.objectContaining({ orderId: other.orderId, expected: '155.00', received: '0.01' }),
  );
});

test('provider unreachable during a webhook: 503 with nothing stored, and the redelivery is applied', async () => {
  const { orderId, paymentId } = await createdCharge();
  const url = payments.sandbox.webhook.url;
  payments.sandbox.webhook.url = undefined; // the notification is delivered by hand below
  try {
    payments.sandbox.confirm(paymentId);
  } finally {
    payments.sandbox.webhook.url = url;
  }
  const sent = payments.sandbox.notifications.find(
    (n) => n.payment.id === paymentId && n.event === 'PAYMENT_RECEIVED',
  )!;
  const read = { match: `GET /payments/${paymentId}`, status: 503 };
  payments.sandbox.faults.api.push(read, read, read);

  const down = await payments.notify(sent);
  expect(down.status).toBe(503);
  expect(await down.json()).toEqual({ message: paymentsMessages.providerUnavailable });
  expect(payments.sandbox.faults.api).toEqual([]);
  expect(await payments.service.db('webhook_events').where({ id: sent.id })).toEqual([]);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'pending' });
  expect(await payments.events(orderId)).toEqual([]);

  const again = await payments.notify(sent);
  expect(again.status).toBe(200);
  expect(await again.json()).toEqual({ received: true, outcome: 'applied' });
  expect(await eventTypes(orderId)).toEqual(['payment.confirmed']);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid' });
});

test('a refund of a confirmed charge at the provider publishes payment.refunded once, even delivered twice', async () => {
  const { orderId, paymentId } = await createdCharge();
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');

  payments.sandbox.faults.webhookCopies = 2;
  const response = await fetch(`${payments.sandbox.apiUrl}/payments/${paymentId}/refund`, {
    method: 'POST',
    headers: { access_token: '$aact_hmlg_test_key', 'content-type': 'application/json' },
    body: '{}',
  });
  expect(response.status).toBe(200);
  await payments.webhooksSettled();
  const sent = payments.sandbox.notifications.find(
    (n) => n.payment.id === paymentId && n.event === 'PAYMENT_REFUNDED',
  )!;
  expect(
    payments.sandbox.deliveries
      .filter((d) => d.eventId === sent.id && d.status === 200)
      .map((d) => d.copy)
      .sort(),
  ).toEqual([1, 2]);
  // A later notification with another id finds the charge already refunded.
  const late = await payments.notify(notification('PAYMENT_REFUNDED', { id: paymentId, status: 'REFUNDED' }));
  expect(await late.json()).toEqual({ received: true, outcome: 'stale' });

  expect(await payments.events(orderId)).toEqual([
    expect.objectContaining({ type: 'payment.confirmed' }),
    {
      type: 'payment.refunded',
      key: orderId,
      payload: { orderId, paymentId, providerStatus: 'REFUNDED', reason: 'refund' },
    },
  ]);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'refunded',
    provider_status: 'REFUNDED',
    refunded_at: expect.any(Date),
  });
  expect(payments.logLines('refund made at the provider without a request from the platform')).toContainEqual(
    expect.objectContaining({ orderId }),
  );
});

test('a chargeback of a confirmed card charge publishes payment.refunded once; the dispute after it changes nothing', async () => {
  const { orderId, paymentId } = await createdCharge('credit_card');
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');

  payments.sandbox.faults.webhookCopies = 2;
  const response = await fetch(`${payments.sandbox.apiUrl}/sandbox/payment/${paymentId}/chargeback`, {
    method: 'POST',
    headers: { access_token: '$aact_hmlg_test_key' },
  });
  expect(response.status).toBe(200);
  await payments.webhooksSettled();
  const sent = payments.sandbox.notifications.find(
    (n) => n.payment.id === paymentId && n.event === 'PAYMENT_CHARGEBACK_REQUESTED',
  )!;
  expect(payments.sandbox.deliveries.filter((d) => d.eventId === sent.id && d.status === 200)).toHaveLength(2);

  payments.sandbox.payments.get(paymentId)!.status = 'CHARGEBACK_DISPUTE';
  const dispute = await payments.notify(
    notification('PAYMENT_CHARGEBACK_DISPUTE', { id: paymentId, status: 'CHARGEBACK_DISPUTE' }),
  );
  expect(await dispute.json()).toEqual({ received: true, outcome: 'stale' });

  expect(await payments.events(orderId)).toEqual([
    expect.objectContaining({ type: 'payment.confirmed' }),
    {
      type: 'payment.refunded',
      key: orderId,
      payload: { orderId, paymentId, providerStatus: 'CHARGEBACK_REQUESTED', reason: 'chargeback' },
    },
  ]);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'charged_back',
    provider_status: 'CHARGEBACK_REQUESTED',
  });
  expect((await payments.webhookRows(paymentId)).map((row) => [row.event, row.outcome])).toEqual([
    ['PAYMENT_CREATED', 'ignored'],
    ['PAYMENT_CONFIRMED', 'applied'],
    ['PAYMENT_CHARGEBACK_REQUESTED', 'applied'],
    ['PAYMENT_CHARGEBACK_DISPUTE', 'stale'],
  ]);
});

test('a paid charge deleted at the provider is refunded; a charge refunded before it was confirmed fails', async () => {
  const paid = await createdCharge();
  payments.sandbox.confirm(paid.paymentId);
  await waitFor(async () => (await payments.chargeRow(paid.orderId))?.status === 'paid');
  payments.sandbox.payments.get(paid.paymentId)!.deleted = true;
  const deleted = await payments.notify(
    notification('PAYMENT_DELETED', { id: paid.paymentId, status: 'RECEIVED', deleted: true }),
  );
  expect(await deleted.json()).toEqual({ received: true, outcome: 'applied' });
  expect((await payments.events(paid.orderId)).map((event) => [event.type, event.payload.reason])).toEqual([
    ['payment.confirmed', undefined],
    ['payment.refunded', 'refund'],
  ]);
  expect(await payments.chargeRow(paid.orderId)).toMatchObject({ status: 'refunded', provider_status: 'DELETED' });

  const unpaid = await createdCharge();
  payments.sandbox.payments.get(unpaid.paymentId)!.status = 'REFUNDED';
  const refunded = await payments.notify(
    notification('PAYMENT_REFUNDED', { id: unpaid.paymentId, status: 'REFUNDED' }),
  );
  expect(await refunded.json()).toEqual({ received: true, outcome: 'applied' });
  expect(await payments.events(unpaid.orderId)).toEqual([
    {
      type: 'payment.failed',
      key: unpaid.orderId,
      payload: { orderId: unpaid.orderId, paymentId: unpaid.paymentId, providerStatus: 'REFUNDED' },
    },
  ]);
});

test('the "Pagar" button of a card invoice confirms through the webhook with the provider time', async () => {
  const { orderId, paymentId } = await createdCharge('credit_card');
  const invoiceUrl = payments.sandbox.payments.get(paymentId)!.invoiceUrl;
  expect((await fetch(`${invoiceUrl}/pagar`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
  await waitFor(async () => (await eventTypes(orderId)).length === 1);
  const [event] = await payments.events(orderId);
  const sent = payments.sandbox.notifications.find(
    (n) => n.payment.id === paymentId && n.event === 'PAYMENT_CONFIRMED',
  )!;
  expect(event).toEqual({
    type: 'payment.confirmed',
    key: orderId,
    payload: {
      orderId,
      paymentId,
      providerStatus: 'CONFIRMED',
      value: '155.00',
      netValue: '154.01',
      paidAt: new Date(`${sent.dateCreated.replace(' ', 'T')}-03:00`).toISOString(),
    },
  });
});

test('unknown payments and events without a payment are stored and answered 200; bad bodies are a 400', async () => {
  const unknown = notification('PAYMENT_RECEIVED', { id: 'pay_de_outro_sistema', status: 'RECEIVED', value: 10 });
  const response = await payments.notify(unknown);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ received: true, outcome: 'unknown_payment' });
  expect(await payments.webhookRows('pay_de_outro_sistema')).toEqual([
    expect.objectContaining({
      id: unknown.id,
      event: 'PAYMENT_RECEIVED',
      outcome: 'unknown_payment',
      payload: unknown,
    }),
  ]);
  expect(
    await payments.service.db('outbox').whereRaw(`envelope->'payload'->>'paymentId' = ?`, ['pay_de_outro_sistema']),
  ).toEqual([]);
  expect(payments.logLines('webhook for an unknown payment stored')).toContainEqual(
    expect.objectContaining({ eventId: unknown.id }),
  );

  const transfer = { id: `evt_${randomUUID()}`, event: 'TRANSFER_DONE', transfer: { id: 'tra_1' } };
  const other = await payments.notify(transfer);
  expect(await other.json()).toEqual({ received: true, outcome: 'ignored' });
  expect(await payments.service.db('webhook_events').where({ id: transfer.id })).toHaveLength(1);

  for (const body of [
    {},
    { id: 'evt_x' },
    { id: 'evt_y', event: 'PAYMENT_RECEIVED', payment: { status: 'RECEIVED' } },
  ]) {
    const bad = await payments.notify(body);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'Notificação de pagamento inválida' });
  }
  expect(await payments.service.db('webhook_events').whereIn('id', ['evt_x', 'evt_y'])).toEqual([]);
});
