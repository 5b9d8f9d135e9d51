import { randomUUID } from 'node:crypto';
import { cnpjCharacters, installmentMessages, type ChargeList, type ChargeView } from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments();
});
afterAll(() => payments.stop());

/** A company's CNPJ in the alphanumeric form the Receita Federal issues (valid check digits). */
const COMPANY_CNPJ = '12.ABC.345/01DE-35';

const paymentCalls = (orderId: string) =>
  payments
    .calls('POST', '/payments')
    .filter((call) => (call.body as { externalReference: string }).externalReference === orderId);

test('a company is charged as a provider customer found or created by its CNPJ, with whom to send its note to', async () => {
  const orderId = randomUUID();
  const customer = {
    userId: randomUUID(),
    name: 'Farmácia Exemplo Ltda',
    cnpj: COMPANY_CNPJ,
    email: 'financeiro@farmacia.example',
  };
  const response = await payments.putCharge(
    orderId,
    chargeRequest({ method: 'boleto', customer, orderNumber: 'PED-2026-000123' }),
  );
  expect(response.status).toBe(200);
  const view = (await response.json()) as ChargeView;

  const document = cnpjCharacters(COMPANY_CNPJ);
  expect(document).toBe('12ABC34501DE35');
  expect(payments.calls('GET', '/customers').at(-1)!.query).toMatchObject({ cpfCnpj: document });
  const [created] = [...payments.sandbox.customers.values()].filter((one) => one.cpfCnpj === document);
  expect(created).toMatchObject({ name: customer.name, personType: 'JURIDICA', email: customer.email });
  expect(payments.sandbox.payments.get(view.paymentId)!.customer).toBe(created!.id);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    customer_id: created!.id,
    customer_name: customer.name,
    customer_email: customer.email,
    order_number: 'PED-2026-000123',
    installment_count: 1,
    installment_id: null,
  });

  // The company's next purchase reuses the customer.
  const again = await payments.putCharge(randomUUID(), chargeRequest({ customer }));
  expect(again.status).toBe(200);
  expect([...payments.sandbox.customers.values()].filter((one) => one.cpfCnpj === document)).toHaveLength(1);
});

test('installments are for cards only: 422 and nothing asked of the provider', async () => {
  for (const method of ['pix', 'boleto'] as const) {
    const orderId = randomUUID();
    const response = await payments.putCharge(orderId, chargeRequest({ method, installments: 3 }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: installmentMessages.cardOnly });
    expect(await payments.chargeRow(orderId)).toBeUndefined();
    expect(paymentCalls(orderId)).toEqual([]);
  }
});

test('a card in 3 installments: the total at the provider, paid once, its net the whole; refunded as a plan', async () => {
  const orderId = randomUUID();
  const response = await payments.putCharge(
    orderId,
    chargeRequest({ method: 'credit_card', amount: '155.00', installments: 3 }),
  );
  expect(response.status).toBe(200);
  const view = (await response.json()) as ChargeView;

  const [asked] = paymentCalls(orderId);
  expect(asked!.body).toMatchObject({ billingType: 'CREDIT_CARD', installmentCount: 3, totalValue: 155 });
  expect(asked!.body).not.toHaveProperty('value');
  const first = payments.sandbox.payments.get(view.paymentId)!;
  const installmentId = (first as unknown as { installment: string }).installment;
  expect(installmentId).toMatch(/^ins_/);
  expect(await payments.chargeRow(orderId)).toMatchObject({
    value: '155.00',
    installment_id: installmentId,
    installment_count: 3,
  });
  const plan = [...payments.sandbox.payments.values()].filter(
    (payment) => (payment as unknown as { installment?: string }).installment === installmentId,
  );
  expect(plan).toHaveLength(3);
  await payments.webhooksSettled();

  // Paying confirms every installment: a notification each, the charge confirmed once.
  payments.sandbox.confirm(view.paymentId);
  await payments.webhooksSettled();
  for (const payment of plan) {
    const rows = await payments.webhookRows(payment.id);
    expect(rows.find((row) => row.event === 'PAYMENT_CONFIRMED')?.outcome).toMatch(/^(applied|stale)$/);
  }
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'paid', review_reason: null });
  const installment = (await (await payments.provider('GET', `/installments/${installmentId}`)).json()) as {
    netValue: number;
  };
  const confirmed = (await payments.events(orderId)).filter((event) => event.type === 'payment.confirmed');
  expect(confirmed).toEqual([
    {
      type: 'payment.confirmed',
      key: orderId,
      payload: {
        orderId,
        paymentId: view.paymentId,
        providerStatus: 'CONFIRMED',
        value: '155.00',
        netValue: installment.netValue.toFixed(2),
        paidAt: expect.any(String),
      },
    },
  ]);
  expect(installment.netValue).toBeGreaterThan(first.netValue);

  const refund = await payments.request('POST', `/internal/charges/${orderId}/refund`);
  expect(refund.status).toBe(200);
  expect(await refund.json()).toEqual({
    paymentId: view.paymentId,
    providerStatus: 'REFUNDED',
    paid: false,
    refund: { status: 'refunded', bankDetailsUrl: null },
  });
  expect(payments.calls('POST', `/installments/${installmentId}/refund`)).toHaveLength(1);
  expect(payments.calls('POST', `/payments/${view.paymentId}/refund`)).toEqual([]);
  await payments.webhooksSettled();
  for (const payment of plan) expect(payments.sandbox.payments.get(payment.id)!.status).toBe('REFUNDED');
  expect((await payments.events(orderId)).map((event) => event.type)).toEqual([
    'payment.confirmed',
    'payment.refunded',
  ]);
  expect(await payments.metric('payments_mismatch_total')).toBe(0);

  const listed = await payments.request('GET', `/internal/charges?orderIds=${orderId}`);
  const { charges } = (await listed.json()) as ChargeList;
  expect(charges).toEqual([
    expect.objectContaining({
      orderId,
      installments: 3,
      invoice: null,
      refund: { status: 'refunded', bankDetailsUrl: null },
    }),
  ]);
});

test('a payment of the order in another installment plan is held for review', async () => {
  const orderId = randomUUID();
  const response = await payments.putCharge(orderId, chargeRequest({ method: 'credit_card', installments: 2 }));
  const view = (await response.json()) as ChargeView;
  await payments.webhooksSettled();
  // The provider shows this order's payment in a plan that is not the charge's.
  const payment = payments.sandbox.payments.get(view.paymentId)! as unknown as { installment: string };
  const own = payment.installment;
  payment.installment = 'ins_de_outro_pedido';
  try {
    expect((await payments.request('POST', `/internal/charges/${orderId}/check`)).status).toBe(200);
  } finally {
    payment.installment = own;
  }
  expect(await payments.chargeRow(orderId)).toMatchObject({ status: 'pending', review_reason: 'value_mismatch' });
  await waitFor(async () => (await payments.metric('payments_mismatch_total', { reason: 'value_mismatch' })) >= 1);
});
