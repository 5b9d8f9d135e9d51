import { makeCpf } from '@ticketing/testkit';
import { startTestSandbox, type TestSandbox } from './support.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

async function paidBoleto() {
  const payment = await t.newPayment({ billingType: 'BOLETO', value: 250 });
  await t.ok('POST', `/sandbox/payment/${payment.id}/confirm`);
  return payment;
}

const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const account = { titular: 'Maria Silva', cpfCnpj: makeCpf(), banco: '001', agencia: '1234', conta: '56789-0' };

test('a paid boleto cannot be refunded as a card is: the provider asks for the boleto refund', async () => {
  const payment = await paidBoleto();
  expect(await t.api('POST', `/payments/${payment.id}/refund`)).toEqual({
    status: 400,
    body: {
      errors: [
        {
          code: 'invalid_action',
          description: 'Para estornar cobranças pagas por boleto utilize o estorno de boleto.',
        },
      ],
    },
  });
  expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'RECEIVED', refunds: null });
});

test('the boleto refund answers a page where the payer gives a bank account; once given, REFUNDED and its webhook', async () => {
  const payment = await paidBoleto();
  const asked = await t.ok('POST', `/payments/${payment.id}/bankSlip/refund`);
  expect(asked).toEqual({
    requestUrl: expect.stringMatching(new RegExp(`^${t.sandbox.url}/estorno-boleto/[0-9a-f]+$`)),
  });
  expect(await t.ok('POST', `/payments/${payment.id}/bankSlip/refund`)).toEqual(asked);
  expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'RECEIVED' });

  const page = await fetch(asked.requestUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const html = await page.text();
  expect(html).toContain('lang="pt-BR"');
  expect(html).toContain('Informe seus dados bancários para receber o reembolso');
  for (const field of ['titular', 'cpfCnpj', 'banco', 'agencia', 'conta']) expect(html).toContain(`name="${field}"`);

  const missing = await postForm(asked.requestUrl, {
    titular: 'Maria <Silva>',
    cpfCnpj: account.cpfCnpj,
    banco: '001',
  });
  expect(missing.status).toBe(400);
  const again = await missing.text();
  expect(again).toContain('Preencha: Agência, Conta.');
  expect(again).toContain('value="Maria &lt;Silva&gt;"');
  expect(again).toContain('Informe seus dados bancários para receber o reembolso');
  expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'RECEIVED' });

  const done = await postForm(asked.requestUrl, account);
  expect(done.status).toBe(200);
  expect(await done.text()).toContain('Reembolso confirmado');
  expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({
    status: 'REFUNDED',
    refunds: [{ status: 'DONE', value: 250 }],
  });
  await t.settled();
  expect(t.eventsOf(payment.id)).toContain('PAYMENT_REFUNDED');
  const delivery = t.received.find(
    (one) => one.body.event === 'PAYMENT_REFUNDED' && one.body.payment.id === payment.id,
  );
  expect(delivery!.headers['asaas-access-token']).toBe('segredo-do-webhook');
  expect(delivery!.body.payment).toMatchObject({ id: payment.id, status: 'REFUNDED', billingType: 'BOLETO' });

  // Sent again, or opened later: the confirmation, and no second refund.
  expect(await (await postForm(asked.requestUrl, account)).text()).toContain('Reembolso confirmado');
  expect(
    t.sandbox.notifications.filter((n) => n.payment.id === payment.id && n.event === 'PAYMENT_REFUNDED'),
  ).toHaveLength(1);
});

test('the bank account may come as JSON; an unknown page is a 404', async () => {
  const payment = await paidBoleto();
  const { requestUrl } = await t.ok('POST', `/payments/${payment.id}/bankSlip/refund`);
  const done = await fetch(requestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(done.status).toBe(200);
  expect(await t.ok('GET', `/payments/${payment.id}`)).toMatchObject({ status: 'REFUNDED' });
  expect((await fetch(`${t.sandbox.url}/estorno-boleto/desconhecido`)).status).toBe(404);
});

test('the boleto refund only of a paid boleto', async () => {
  const pix = await t.newPayment({ billingType: 'PIX' });
  await t.ok('POST', `/sandbox/payment/${pix.id}/confirm`);
  const unpaid = await t.newPayment({ billingType: 'BOLETO' });
  for (const id of [pix.id, unpaid.id]) {
    expect(await t.api('POST', `/payments/${id}/bankSlip/refund`)).toMatchObject({
      status: 400,
      body: { errors: [{ code: 'invalid_action', description: expect.any(String) }] },
    });
  }
  expect((await t.api('POST', '/payments/pay_desconhecido/bankSlip/refund')).status).toBe(404);
});

test('while the refund refusal is set every refund call is refused with its description, until it is removed', async () => {
  const card = await t.newPayment({ billingType: 'CREDIT_CARD' });
  t.sandbox.confirm(card.id);
  const boleto = await paidBoleto();
  const customer = await t.newCustomer();
  const installment = await t.ok('POST', '/payments', {
    customer: customer.id,
    billingType: 'CREDIT_CARD',
    installmentCount: 2,
    totalValue: 50,
    dueDate: '2027-01-10',
  });
  t.sandbox.confirm(installment.id);

  const description = 'Saldo insuficiente para realizar o estorno.';
  expect(await t.ok('POST', '/sandbox/refund-refusal', { description })).toMatchObject({ refundRefusal: description });
  expect(await t.ok('GET', '/sandbox/faults')).toMatchObject({ refundRefusal: description });
  try {
    const refused = { status: 400, body: { errors: [{ code: 'invalid_action', description }] } };
    expect(await t.api('POST', `/payments/${card.id}/refund`)).toEqual(refused);
    expect(await t.api('POST', `/installments/${installment.installment}/refund`)).toEqual(refused);
    expect(await t.api('POST', `/payments/${boleto.id}/bankSlip/refund`)).toEqual(refused);
    // Still refused on the next calls: the refusal lasts until removed.
    expect(await t.api('POST', `/payments/${card.id}/refund`)).toEqual(refused);
    for (const id of [card.id, boleto.id, installment.id]) {
      expect(await t.ok('GET', `/payments/${id}`)).toMatchObject({
        status: expect.stringMatching(/^(CONFIRMED|RECEIVED)$/),
      });
    }
  } finally {
    expect(await t.ok('DELETE', '/sandbox/refund-refusal')).toMatchObject({ refundRefusal: null });
  }
  expect(await t.ok('POST', `/payments/${card.id}/refund`)).toMatchObject({ status: 'REFUNDED' });
  expect(await t.ok('POST', `/installments/${installment.installment}/refund`)).toMatchObject({
    object: 'installment',
  });
  expect(await t.ok('POST', `/payments/${boleto.id}/bankSlip/refund`)).toMatchObject({
    requestUrl: expect.any(String),
  });
});
