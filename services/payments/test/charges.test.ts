import { randomUUID } from 'node:crypto';
import type { ChargeStatusView, ChargeView } from '@ticketing/proto';
import { paymentsMessages } from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments({ ASAAS_TIMEOUT_MS: '5000' }); // a held provider call is released well within it
});
afterAll(() => payments.stop());

const check = (orderId: string) => payments.request('POST', `/internal/charges/${orderId}/check`);
const refund = (orderId: string) => payments.request('POST', `/internal/charges/${orderId}/refund`);

async function createdCharge(method: 'pix' | 'boleto' | 'credit_card' = 'pix') {
  const orderId = randomUUID();
  const response = await payments.putCharge(orderId, chargeRequest({ method }));
  expect(response.status).toBe(200);
  return { orderId, view: (await response.json()) as ChargeView };
}

test('PUT creates the PIX charge once: stored, answered, repeated without new provider calls', async () => {
  const orderId = randomUUID();
  const body = chargeRequest({ amount: '66.60' });
  const first = await payments.putCharge(orderId, body);
  expect(first.status).toBe(200);
  const view = (await first.json()) as ChargeView;
  const [payment] = [...payments.sandbox.payments.values()].filter((p) => p.externalReference === orderId);
  expect(view).toEqual({
    paymentId: payment!.id,
    providerStatus: 'PENDING',
    pixQrCode: expect.stringMatching(/^iVBORw0KGgo/),
    pixPayload: expect.stringMatching(/^000201.*540566\.60.*6304[0-9A-F]{4}$/),
    boletoUrl: null,
    boletoLine: null,
    invoiceUrl: payment!.invoiceUrl,
  });
  expect(await payments.chargeRow(orderId)).toMatchObject({
    order_id: orderId,
    payment_id: payment!.id,
    customer_id: payment!.customer,
    method: 'pix',
    value: '66.60',
    status: 'pending',
    provider_status: 'PENDING',
    pix_payload: view.pixPayload,
    pix_qr_code: view.pixQrCode,
    due_date: body.dueDate,
  });
  expect(payments.logLines('charge created')).toContainEqual(
    expect.objectContaining({ orderId, paymentId: payment!.id, method: 'pix', value: '66.60' }),
  );
  const made = payments.sandbox.requests.length;
  for (let i = 0; i < 3; i++) {
    const again = await payments.putCharge(orderId, body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(view);
  }
  expect(payments.sandbox.requests.length).toBe(made);
  expect(await payments.events(orderId)).toEqual([]);
});

test('concurrent PUTs for one order make one provider payment and one row', async () => {
  const orderId = randomUUID();
  const body = chargeRequest({ method: 'boleto' });
  const responses = await Promise.all(Array.from({ length: 6 }, () => payments.putCharge(orderId, body)));
  const views = await Promise.all(responses.map((response) => response.json()));
  expect(responses.map((response) => response.status)).toEqual(Array(6).fill(200));
  expect(new Set(views.map((view) => JSON.stringify(view))).size).toBe(1);
  expect([...payments.sandbox.payments.values()].filter((p) => p.externalReference === orderId)).toHaveLength(1);
  expect(
    payments.sandbox.requests.filter(
      (call) =>
        call.method === 'POST' &&
        call.path === '/payments' &&
        (call.body as { externalReference: string }).externalReference === orderId,
    ),
  ).toHaveLength(1);
  expect(await payments.service.db('charges').where({ order_id: orderId })).toHaveLength(1);
});

test('the provider is called with no transaction open: the reserved charge is committed and unlocked meanwhile', async () => {
  const orderId = randomUUID();
  payments.sandbox.faults.api.push({ match: 'POST /payments', hold: true });
  const answer = payments.putCharge(orderId);
  await waitFor(() => payments.sandbox.heldCalls === 1);

  const db = payments.service.db;
  expect(await db('charges').where({ order_id: orderId }).first()).toMatchObject({
    payment_id: null,
    status: 'pending',
    value: '155.00',
    method: 'pix',
  });
  // NOWAIT fails at once if any transaction holds the row.
  await db.transaction((trx) =>
    trx.raw('select order_id from charges where order_id = ? for update nowait', [orderId]),
  );
  // A repeated call waits for the one talking to the provider instead of creating a second payment.
  const repeated = payments.putCharge(orderId);
  expect(await payments.chargeRow(orderId)).toMatchObject({ payment_id: null });

  payments.sandbox.release();
  const [first, second] = await Promise.all([answer, repeated]);
  expect([first.status, second.status]).toEqual([200, 200]);
  const view = (await first.json()) as ChargeView;
  expect(await second.json()).toEqual(view);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    payment_id: view.paymentId,
    provider_status: 'PENDING',
    creation_id: null,
  });
  expect(
    payments.sandbox.requests.filter(
      (call) =>
        call.method === 'POST' &&
        call.path === '/payments' &&
        (call.body as { externalReference: string }).externalReference === orderId,
    ),
  ).toHaveLength(1);
});

test('boleto answers the slip URL and its digitable line (both kept); card answers the invoice URL', async () => {
  const boleto = await createdCharge('boleto');
  expect(boleto.view).toMatchObject({
    pixQrCode: null,
    pixPayload: null,
    boletoUrl: expect.stringContaining(`/b/${boleto.view.paymentId}`),
    boletoLine: expect.stringMatching(/^\d{47}$/),
  });
  expect((await payments.chargeRow(boleto.orderId))!.boleto_line).toBe(boleto.view.boletoLine);

  const card = await createdCharge('credit_card');
  expect(card.view).toEqual({
    paymentId: card.view.paymentId,
    providerStatus: 'PENDING',
    pixQrCode: null,
    pixPayload: null,
    boletoUrl: null,
    boletoLine: null,
    invoiceUrl: expect.stringContaining(`/i/${card.view.paymentId}`),
  });
});

test('bad input is a 400; a provider refusal is a 422 and a provider outage a 503, with nothing stored', async () => {
  const bad = await payments.putCharge(randomUUID(), { ...chargeRequest(), method: 'cheque' } as never);
  expect(bad.status).toBe(400);
  const badOrder = await payments.putCharge('pedido-1');
  expect(badOrder.status).toBe(400);
  expect(await badOrder.json()).toEqual({ message: 'Identificador de pedido inválido' });

  const refusedOrder = randomUUID();
  const refused = await payments.putCharge(refusedOrder, chargeRequest({ amount: '0.00' }));
  expect(refused.status).toBe(422);
  expect(await refused.json()).toEqual({
    message: `${paymentsMessages.providerRefused}: O valor da cobrança deve ser maior que zero.`,
  });
  expect(await payments.chargeRow(refusedOrder)).toBeUndefined();

  const downOrder = randomUUID();
  payments.sandbox.faults.api.push({ status: 500 }, { status: 500 }, { status: 500 });
  const down = await payments.putCharge(downOrder);
  expect(down.status).toBe(503);
  expect(await down.json()).toEqual({ message: paymentsMessages.providerUnavailable });
  expect(await payments.chargeRow(downOrder)).toBeUndefined();
  expect(payments.logLines('unhandled error')).toEqual([]);
});

test('check asks the provider once and applies a payment exactly as a webhook would', async () => {
  const url = payments.sandbox.webhook.url;
  payments.sandbox.webhook.url = undefined; // only the check path may learn about the payment here
  try {
    const { orderId, view } = await createdCharge();
    const before = await check(orderId);
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ paymentId: view.paymentId, providerStatus: 'PENDING', paid: false });
    expect(payments.calls('GET', `/payments/${view.paymentId}`)).toHaveLength(1);

    payments.sandbox.confirm(view.paymentId);
    for (let i = 0; i < 2; i++) {
      const after = await check(orderId);
      expect((await after.json()) as ChargeStatusView).toEqual({
        paymentId: view.paymentId,
        providerStatus: 'RECEIVED',
        paid: true,
      });
    }
    expect(payments.calls('GET', `/payments/${view.paymentId}`)).toHaveLength(3);
    expect(await payments.chargeRow(orderId)).toMatchObject({
      status: 'paid',
      provider_status: 'RECEIVED',
      paid_at: expect.any(Date),
    });
    expect(await payments.events(orderId)).toEqual([
      {
        type: 'payment.confirmed',
        key: orderId,
        payload: {
          orderId,
          paymentId: view.paymentId,
          providerStatus: 'RECEIVED',
          value: '155.00',
          // What the provider pays out after its fee (the sandbox keeps R$ 0,99).
          netValue: '154.01',
          paidAt: expect.stringMatching(/Z$/),
        },
      },
    ]);
    expect(payments.logLines('payment confirmed')).toContainEqual(
      expect.objectContaining({ orderId, source: 'check' }),
    );
  } finally {
    payments.sandbox.webhook.url = url;
  }
});

test('GET /internal/charges answers how to pay the orders named that have a charge, without asking the provider', async () => {
  const pix = await createdCharge('pix');
  const boleto = await createdCharge('boleto');
  const unknown = randomUUID();
  const asked = payments.sandbox.requests.length;
  const response = await payments.request(
    'GET',
    `/internal/charges?orderIds=${pix.orderId},${boleto.orderId},${unknown}`,
  );
  expect(response.status).toBe(200);
  const { charges } = (await response.json()) as { charges: (ChargeView & { orderId: string })[] };
  expect(charges.sort((a, b) => a.paymentId.localeCompare(b.paymentId))).toEqual(
    [
      { orderId: pix.orderId, ...pix.view, installments: 1, invoice: null, refund: null },
      { orderId: boleto.orderId, ...boleto.view, installments: 1, invoice: null, refund: null },
    ].sort((a, b) => a.paymentId.localeCompare(b.paymentId)),
  );
  expect(payments.sandbox.requests.length).toBe(asked);

  for (const query of ['', '?orderIds=', '?orderIds=nao-e-pedido']) {
    const refused = await payments.request('GET', `/internal/charges${query}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: paymentsMessages.invalidOrderIds });
  }
});

test('check and refund of an unknown order are 404', async () => {
  for (const orderId of [randomUUID(), 'nao-e-pedido']) {
    for (const response of [await check(orderId), await refund(orderId)]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: paymentsMessages.chargeNotFound });
    }
  }
});

test('refund gives a paid charge back once and publishes payment.refunded once, whatever the notification does', async () => {
  const { orderId, view } = await createdCharge();
  const early = await refund(orderId);
  expect(early.status).toBe(409);
  expect(await early.json()).toEqual({ message: 'Somente cobranças pagas podem ser estornadas' });

  payments.sandbox.confirm(view.paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  const first = await refund(orderId);
  expect(first.status).toBe(200);
  const refunded = {
    paymentId: view.paymentId,
    providerStatus: 'REFUNDED',
    paid: false,
    refund: { status: 'refunded', bankDetailsUrl: null },
  };
  expect(await first.json()).toEqual(refunded);
  expect(payments.sandbox.payments.get(view.paymentId)!.status).toBe('REFUNDED');
  const again = await refund(orderId);
  expect(await again.json()).toEqual(refunded);
  expect(payments.calls('POST', `/payments/${view.paymentId}/refund`)).toHaveLength(1);

  await payments.webhooksSettled();
  const rows = await payments.webhookRows(view.paymentId);
  expect(rows.map((row) => [row.event, row.outcome])).toEqual(
    expect.arrayContaining([['PAYMENT_REFUNDED', expect.stringMatching(/^(applied|stale)$/)]]),
  );
  expect(await payments.chargeRow(orderId)).toMatchObject({
    status: 'refunded',
    refund_requested_at: expect.any(Date),
    refunded_at: expect.any(Date),
  });
  expect(await payments.events(orderId)).toEqual([
    expect.objectContaining({ type: 'payment.confirmed' }),
    {
      type: 'payment.refunded',
      key: orderId,
      payload: { orderId, paymentId: view.paymentId, providerStatus: 'REFUNDED', reason: 'refund' },
    },
  ]);
  expect(payments.logLines('charge refunded')).toContainEqual(expect.objectContaining({ orderId }));
  expect(payments.logLines('refund made at the provider without a request from the platform')).not.toContainEqual(
    expect.objectContaining({ orderId }),
  );
});

test('ten refunds of one charge at once: one provider refund and one payment.refunded; the others are told to try again', async () => {
  const { orderId, view } = await createdCharge();
  payments.sandbox.confirm(view.paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  const asked = `POST /payments/${view.paymentId}/refund`;
  payments.sandbox.faults.api.push({ match: asked, hold: true });

  const answers = Promise.all(Array.from({ length: 10 }, () => refund(orderId)));
  await waitFor(() => payments.sandbox.heldCalls === 1);
  payments.sandbox.release();

  const responses = await answers;
  expect(responses.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(1);
  for (const response of responses.filter((one) => one.status !== 200)) {
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      message: 'O estorno desta cobrança já está em andamento. Tente novamente em instantes.',
    });
  }
  expect(payments.calls('POST', `/payments/${view.paymentId}/refund`)).toHaveLength(1);
  expect(payments.sandbox.payments.get(view.paymentId)!.refunds).toHaveLength(1);
  await payments.webhooksSettled();
  expect((await payments.events(orderId)).filter((event) => event.type === 'payment.refunded')).toHaveLength(1);
  // Asked again afterwards: the refunded charge is answered, the provider is not asked.
  expect((await refund(orderId)).status).toBe(200);
  expect(payments.calls('POST', `/payments/${view.paymentId}/refund`)).toHaveLength(1);
});

test('a refund the provider could not do is handed back: the next request asks again at once', async () => {
  const { orderId, view } = await createdCharge();
  payments.sandbox.confirm(view.paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  const asked = `POST /payments/${view.paymentId}/refund`;
  payments.sandbox.faults.api.push(...Array.from({ length: 5 }, () => ({ match: asked, status: 500 })));

  expect((await refund(orderId)).status).toBe(503);
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid', refund_lease_until: null });
  payments.sandbox.faults.api.length = 0;

  const second = await refund(orderId);
  expect(second.status).toBe(200);
  expect(await second.json()).toMatchObject({ providerStatus: 'REFUNDED' });
  expect(payments.sandbox.payments.get(view.paymentId)!.refunds).toHaveLength(1);
});
