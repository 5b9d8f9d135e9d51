import { startTestSandbox, type TestSandbox } from './support.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

const cents = (value: number) => Math.round(value * 100);

async function newInstallment(fields: Record<string, unknown> = {}) {
  const customer = await t.newCustomer();
  const first = await t.ok('POST', '/payments', {
    customer: customer.id,
    billingType: 'CREDIT_CARD',
    installmentCount: 3,
    totalValue: 100,
    dueDate: '2027-01-31',
    description: 'Ingresso Congresso',
    externalReference: `pedido-${customer.id}`,
    ...fields,
  });
  const list = await t.ok('GET', `/payments?installment=${first.installment}`);
  return { customer, first, payments: list.data as Record<string, any>[] };
}

test('installmentCount and totalValue make N payments that add up to the total, a month apart', async () => {
  const { customer, first, payments } = await newInstallment();
  expect(first).toMatchObject({
    object: 'payment',
    id: expect.stringMatching(/^pay_/),
    installment: expect.stringMatching(/^ins_\d{12}$/),
    installmentNumber: 1,
    installmentCount: 3,
    value: 33.33,
    status: 'PENDING',
    billingType: 'CREDIT_CARD',
    invoiceUrl: `${t.sandbox.url}/i/${first.id}`,
  });
  expect(payments.map((payment) => payment.id)[0]).toBe(first.id);
  expect(
    payments.map((payment) => [payment.installmentNumber, payment.installmentCount, payment.value, payment.dueDate]),
  ).toEqual([
    [1, 3, 33.33, '2027-01-31'],
    [2, 3, 33.33, '2027-02-28'],
    [3, 3, 33.34, '2027-03-31'],
  ]);
  expect(payments.reduce((sum, payment) => sum + cents(payment.value), 0)).toBe(10000);
  for (const [i, payment] of payments.entries()) {
    expect(payment).toMatchObject({
      installment: first.installment,
      customer: customer.id,
      externalReference: `pedido-${customer.id}`,
      description: `Parcela ${i + 1} de 3. Ingresso Congresso`,
    });
  }

  expect(await t.ok('GET', `/installments/${first.installment}`)).toMatchObject({
    object: 'installment',
    id: first.installment,
    value: 100,
    netValue: (10000 - 3 * 99) / 100,
    paymentValue: 33.33,
    installmentCount: 3,
    billingType: 'CREDIT_CARD',
    customer: customer.id,
    paymentDate: null,
    deleted: false,
  });
  const listed = await t.ok('GET', `/installments/${first.installment}/payments`);
  expect(listed).toMatchObject({ object: 'list', totalCount: 3 });
  expect(listed.data).toEqual(payments);
  expect((await t.api('GET', '/installments/ins_000000000000')).status).toBe(404);
});

test('installmentValue instead of the total: each payment is that value', async () => {
  const { first, payments } = await newInstallment({
    totalValue: undefined,
    installmentValue: 12.5,
    installmentCount: 4,
  });
  expect(payments.map((payment) => payment.value)).toEqual([12.5, 12.5, 12.5, 12.5]);
  expect(await t.ok('GET', `/installments/${first.installment}`)).toMatchObject({ value: 50, installmentCount: 4 });
});

test("paying the card on the first payment's page confirms every installment, with a webhook each", async () => {
  const { first, payments } = await newInstallment();
  const paid = await fetch(`${first.invoiceUrl}/pagar`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  await t.settled();
  for (const payment of payments) {
    expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'CONFIRMED' });
    expect(t.eventsOf(payment.id).sort()).toEqual(['PAYMENT_CONFIRMED', 'PAYMENT_CREATED']);
  }
  expect(await t.ok('GET', `/installments/${first.installment}`)).toMatchObject({ paymentDate: expect.any(String) });
});

test("confirming any one of a card installment's payments confirms them all; a boleto's are paid one by one", async () => {
  const card = await newInstallment();
  expect(await t.ok('POST', `/sandbox/payment/${card.payments[2]!.id}/confirm`)).toMatchObject({
    id: card.payments[2]!.id,
    status: 'CONFIRMED',
  });
  const statuses = await t.ok('GET', `/payments?installment=${card.first.installment}`);
  expect(statuses.data.map((payment: { status: string }) => payment.status)).toEqual([
    'CONFIRMED',
    'CONFIRMED',
    'CONFIRMED',
  ]);

  const boleto = await newInstallment({ billingType: 'BOLETO', installmentCount: 2 });
  expect(boleto.payments.every((payment) => payment.bankSlipUrl)).toBe(true);
  await t.ok('POST', `/sandbox/payment/${boleto.first.id}/confirm`);
  const after = await t.ok('GET', `/payments?installment=${boleto.first.installment}`);
  expect(after.data.map((payment: { status: string }) => payment.status)).toEqual(['RECEIVED', 'PENDING']);
});

test('refunding the installment refunds every paid payment, with PAYMENT_REFUNDED each, and answers it', async () => {
  const { first, payments } = await newInstallment();
  expect(await t.api('POST', `/installments/${first.installment}/refund`)).toMatchObject({
    status: 400,
    body: { errors: [{ code: 'invalid_action' }] },
  });
  t.sandbox.confirm(first.id);
  const refunded = await t.ok('POST', `/installments/${first.installment}/refund`);
  expect(refunded).toMatchObject({ object: 'installment', id: first.installment, value: 100 });
  await t.settled();
  for (const payment of payments) {
    expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'REFUNDED' });
    const delivery = t.received.find(
      (one) => one.body.event === 'PAYMENT_REFUNDED' && one.body.payment.id === payment.id,
    );
    expect(delivery!.body.payment).toMatchObject({ status: 'REFUNDED', installment: first.installment });
  }
});

test('a count outside 2–12, an installment under R$ 5,00 or another billing type is refused, nothing created', async () => {
  const customer = await t.newCustomer();
  const base = { customer: customer.id, billingType: 'CREDIT_CARD', totalValue: 120, dueDate: '2027-01-10' };
  const before = t.sandbox.payments.size;
  const cases: [Record<string, unknown>, string, string][] = [
    [{ installmentCount: 1 }, 'invalid_installmentCount', 'O número de parcelas deve ser de 2 a 12.'],
    [{ installmentCount: 13 }, 'invalid_installmentCount', 'O número de parcelas deve ser de 2 a 12.'],
    [{ installmentCount: 2.5 }, 'invalid_installmentCount', 'O número de parcelas deve ser de 2 a 12.'],
    [
      { installmentCount: 2, totalValue: 9.99 },
      'invalid_installmentCount',
      'O valor de cada parcela deve ser de pelo menos R$ 5,00.',
    ],
    [
      { installmentCount: 3, totalValue: undefined, installmentValue: 4.99 },
      'invalid_installmentCount',
      'O valor de cada parcela deve ser de pelo menos R$ 5,00.',
    ],
    [
      { installmentCount: 3, totalValue: undefined },
      'invalid_value',
      'Informe o valor total ou o valor de cada parcela.',
    ],
    [
      { installmentCount: 3, billingType: 'PIX' },
      'invalid_billingType',
      'O parcelamento só é possível no cartão de crédito ou no boleto.',
    ],
  ];
  for (const [fields, code, description] of cases) {
    expect(await t.api('POST', '/payments', { ...base, ...fields })).toEqual({
      status: 400,
      body: { errors: [{ code, description }] },
    });
  }
  expect(t.sandbox.payments.size).toBe(before);
  expect(await t.ok('POST', '/payments', { ...base, installmentCount: 12, totalValue: 60 })).toMatchObject({
    installmentCount: 12,
    value: 5,
  });
});
