import { randomUUID } from 'node:crypto';
import type { ChargeView } from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments({ CHARGE_DELETION_SWEEP_MS: '200' });
});
afterAll(() => payments.stop());

async function createdCharge(method: 'pix' | 'boleto' = 'pix') {
  const orderId = randomUUID();
  const body = chargeRequest({ method });
  const response = await payments.putCharge(orderId, body);
  expect(response.status).toBe(200);
  const { paymentId } = (await response.json()) as ChargeView;
  await payments.webhooksSettled();
  return { orderId, paymentId, userId: body.customer.userId };
}

const handled = (eventId: string) =>
  waitFor(async () => (await payments.service.db('inbox').where({ event_id: eventId }).first()) ?? false);

test('order.cancelled deletes the pending charge at the provider once; its PAYMENT_DELETED is not a failure', async () => {
  const { orderId, paymentId, userId } = await createdCharge();
  const payload = { orderId, userId, eventId: randomUUID(), paymentId };
  const event = await payments.publish('order.cancelled', payload);
  await handled(event.id);
  expect(payments.logLines('charge deletion requested')).toContainEqual(
    expect.objectContaining({ orderId, reason: 'order.cancelled' }),
  );

  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'cancelled');
  expect(payments.calls('DELETE', `/payments/${paymentId}`)).toHaveLength(1);
  expect(payments.sandbox.payments.get(paymentId)).toMatchObject({ deleted: true });
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'cancelled',
    provider_status: 'DELETED',
    delete_requested_at: expect.any(Date),
  });
  await waitFor(() => payments.logLines('charge deleted').some((line) => line.orderId === orderId));

  await payments.webhooksSettled();
  await waitFor(async () => (await payments.webhookRows(paymentId)).some((row) => row.event === 'PAYMENT_DELETED'));
  // Whether it comes before or after the deletion is recorded, the provider's PAYMENT_DELETED announces nothing.
  const rows = await payments.webhookRows(paymentId);
  expect(rows.find((row) => row.event === 'PAYMENT_DELETED')!.outcome).toMatch(/^(stale|applied)$/);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'cancelled' });
  expect(await payments.events(orderId)).toEqual([]);

  // The order expiring later (another event for the same order) changes nothing at the provider.
  const expired = await payments.publish('order.expired', payload);
  await handled(expired.id);
  expect(payments.calls('DELETE', `/payments/${paymentId}`)).toHaveLength(1);
  expect(payments.logLines('charge already closed')).toContainEqual(expect.objectContaining({ orderId }));
});

test('order.expired leaves a paid charge alone and says so', async () => {
  const { orderId, paymentId, userId } = await createdCharge('boleto');
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');

  const event = await payments.publish('order.expired', { orderId, userId, eventId: randomUUID(), paymentId });
  await handled(event.id);
  expect(payments.calls('DELETE', `/payments/${paymentId}`)).toEqual([]);
  expect(payments.sandbox.payments.get(paymentId)).toMatchObject({ deleted: false, status: 'RECEIVED' });
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid' });
  expect((await payments.events(orderId)).map((e) => e.type)).toEqual(['payment.confirmed']);
  expect(payments.logLines('charge already paid: left alone')).toContainEqual(
    expect.objectContaining({ orderId, paymentId, reason: 'order.expired', level: 40 }),
  );
});

test('a charge paid just before the cancellation arrives is not deleted: the payment is confirmed', async () => {
  const { orderId, paymentId, userId } = await createdCharge();
  const url = payments.sandbox.webhook.url;
  payments.sandbox.webhook.url = undefined; // the paid notification has not reached us yet
  try {
    payments.sandbox.confirm(paymentId);
    const event = await payments.publish('order.cancelled', { orderId, userId, eventId: randomUUID(), paymentId });
    await handled(event.id);
    await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  } finally {
    payments.sandbox.webhook.url = url;
  }
  expect(payments.calls('DELETE', `/payments/${paymentId}`)).toHaveLength(1);
  expect(payments.sandbox.payments.get(paymentId)).toMatchObject({ deleted: false, status: 'RECEIVED' });
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid' });
  expect(await payments.events(orderId)).toEqual([
    expect.objectContaining({ type: 'payment.confirmed', payload: expect.objectContaining({ orderId, paymentId }) }),
  ]);
  expect(payments.logLines('charge not deleted')).toContainEqual(expect.objectContaining({ orderId }));
});

test('the provider down while deleting: the deletion is tried again in a later round, with no transaction open', async () => {
  const { orderId, paymentId, userId } = await createdCharge();
  const deletion = { match: `DELETE /payments/${paymentId}`, status: 503 };
  payments.sandbox.faults.api.push(deletion, deletion, deletion);
  const event = await payments.publish('order.cancelled', { orderId, userId, eventId: randomUUID(), paymentId });
  await handled(event.id);

  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'cancelled');
  const attempts = payments.calls('DELETE', `/payments/${paymentId}`);
  expect(attempts.map((call) => call.fault)).toEqual([503, 503, 503, undefined]);
  expect(payments.logLines('charge deletion failed; it is tried again later')).toContainEqual(
    expect.objectContaining({ orderId, paymentId }),
  );
  expect(payments.sandbox.payments.get(paymentId)).toMatchObject({ deleted: true });
  expect(await payments.events(orderId)).toEqual([]);
});

test('a cancellation for an order without a charge is handled and logged', async () => {
  const orderId = randomUUID();
  const event = await payments.publish('order.cancelled', {
    orderId,
    userId: randomUUID(),
    eventId: randomUUID(),
    paymentId: null,
  });
  await handled(event.id);
  expect(payments.logLines('no charge for the order')).toContainEqual(expect.objectContaining({ orderId }));
  expect(await payments.events(orderId)).toEqual([]);
});
