import { randomUUID } from 'node:crypto';
import { paymentsMessages, type ChargeList, type ChargeRefundAnswer, type ChargeView } from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments({ ASAAS_TIMEOUT_MS: '5000' }); // a held provider call is released well within it
});
afterAll(() => payments.stop());

const refund = (orderId: string) => payments.request('POST', `/internal/charges/${orderId}/refund`);
const listed = async (orderId: string) =>
  ((await (await payments.request('GET', `/internal/charges?orderIds=${orderId}`)).json()) as ChargeList).charges[0];

async function paidCharge(method: 'pix' | 'boleto' | 'credit_card') {
  const orderId = randomUUID();
  const response = await payments.putCharge(orderId, chargeRequest({ method }));
  expect(response.status).toBe(200);
  const { paymentId } = (await response.json()) as ChargeView;
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  return { orderId, paymentId };
}

test('a boleto refund waits for the payer bank details at the provider page; filled in, it is refunded once', async () => {
  const { orderId, paymentId } = await paidCharge('boleto');
  const first = await refund(orderId);
  expect(first.status).toBe(200);
  const answer = (await first.json()) as ChargeRefundAnswer;
  const bankDetailsUrl = answer.refund.bankDetailsUrl!;
  expect(bankDetailsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  expect(answer).toEqual({
    paymentId,
    providerStatus: 'RECEIVED',
    paid: true,
    refund: { status: 'awaiting_bank_details', bankDetailsUrl },
  });
  expect(payments.calls('POST', `/payments/${paymentId}/bankSlip/refund`)).toHaveLength(1);
  expect(payments.calls('POST', `/payments/${paymentId}/refund`)).toEqual([]);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'paid',
    refund_bank_details_url: bankDetailsUrl,
    refund_lease_until: null,
    refund_requested_at: expect.any(Date),
  });
  // Asked again: the same answer, the provider is not asked again.
  const again = await refund(orderId);
  expect(await again.json()).toEqual(answer);
  expect(payments.calls('POST', `/payments/${paymentId}/bankSlip/refund`)).toHaveLength(1);
  expect(await listed(orderId)).toMatchObject({ refund: { status: 'awaiting_bank_details', bankDetailsUrl } });
  expect((await payments.events(orderId)).map((event) => event.type)).toEqual(['payment.confirmed']);

  // The payer fills the provider's form in.
  const form = await fetch(bankDetailsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      titular: 'Maria da Conceição',
      cpfCnpj: '52998224725',
      banco: '001',
      agencia: '1234',
      conta: '56789-0',
    }).toString(),
  });
  expect(form.status).toBe(200);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'refunded');
  await payments.webhooksSettled();
  expect(await payments.events(orderId)).toEqual([
    expect.objectContaining({ type: 'payment.confirmed' }),
    {
      type: 'payment.refunded',
      key: orderId,
      payload: { orderId, paymentId, providerStatus: 'REFUNDED', reason: 'refund' },
    },
  ]);
  expect(await listed(orderId)).toMatchObject({ refund: { status: 'refunded', bankDetailsUrl } });
  const done = await refund(orderId);
  expect(await done.json()).toEqual({
    paymentId,
    providerStatus: 'REFUNDED',
    paid: false,
    refund: { status: 'refunded', bankDetailsUrl },
  });
  expect(payments.calls('POST', `/payments/${paymentId}/bankSlip/refund`)).toHaveLength(1);
});

test('eight boleto refunds at once: one takes it, every answer is the same page or a retry', async () => {
  const { orderId, paymentId } = await paidCharge('boleto');
  payments.sandbox.faults.api.push({ match: `POST /payments/${paymentId}/bankSlip/refund`, hold: true });
  const answers = Promise.all(Array.from({ length: 8 }, () => refund(orderId)));
  await waitFor(() => payments.sandbox.heldCalls === 1);
  payments.sandbox.release();
  const responses = await answers;
  const answered = await Promise.all(responses.map((response) => response.json()));
  const won = answered.filter((_, i) => responses[i]!.status === 200) as ChargeRefundAnswer[];
  expect(won.length).toBeGreaterThanOrEqual(1);
  expect(new Set(won.map((answer) => answer.refund.bankDetailsUrl)).size).toBe(1);
  expect(won[0]!.refund.status).toBe('awaiting_bank_details');
  for (const [i, response] of responses.entries()) {
    if (response.status !== 200) {
      expect(response.status).toBe(503);
      expect(answered[i]).toEqual({
        message: 'O estorno desta cobrança já está em andamento. Tente novamente em instantes.',
      });
    }
  }
  // One request held the refund (the adapter may repeat its call, which the provider answers with the same page).
  expect(
    payments.logLines('boleto refund awaits bank details').filter((line) => line.orderId === orderId),
  ).toHaveLength(1);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'paid',
    refund_bank_details_url: won[0]!.refund.bankDetailsUrl,
    refund_lease_until: null,
  });
});

test('a refund the provider refuses is a 422 with its words, counted and logged; the charge stays paid', async () => {
  const reason = 'Saldo insuficiente para realizar o estorno.';
  expect((await payments.provider('POST', '/sandbox/refund-refusal', { description: reason })).status).toBe(200);
  try {
    for (const method of ['pix', 'boleto'] as const) {
      const { orderId, paymentId } = await paidCharge(method);
      const before = await payments.metric('payments_refunds_refused_total', { method });
      const refused = await refund(orderId);
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual({ message: paymentsMessages.refundRefused(reason) });
      expect(await payments.metric('payments_refunds_refused_total', { method })).toBe(before + 1);
      expect(payments.logLines('refund refused by the provider')).toContainEqual(
        expect.objectContaining({ orderId, paymentId, method, reason, level: 50 }),
      );
      expect(await payments.chargeRow(orderId)).toMatchObject({
        status: 'paid',
        refund_lease_until: null,
        refund_bank_details_url: null,
      });
      expect(await listed(orderId)).toMatchObject({ refund: null });
      expect((await payments.events(orderId)).map((event) => event.type)).toEqual(['payment.confirmed']);
    }
  } finally {
    await payments.provider('DELETE', '/sandbox/refund-refusal');
  }
});

test('a refund during a provider outage stays a 503 and is not counted as refused', async () => {
  const { orderId, paymentId } = await paidCharge('credit_card');
  const asked = `POST /payments/${paymentId}/refund`;
  payments.sandbox.faults.api.push(...Array.from({ length: 5 }, () => ({ match: asked, status: 503 })));
  const before = await payments.metric('payments_refunds_refused_total', { method: 'credit_card' });
  const down = await refund(orderId);
  expect(down.status).toBe(503);
  expect(await down.json()).toEqual({ message: paymentsMessages.providerUnavailable });
  expect(await payments.metric('payments_refunds_refused_total', { method: 'credit_card' })).toBe(before);
  payments.sandbox.faults.api.length = 0;
  expect((await refund(orderId)).status).toBe(200);
});
