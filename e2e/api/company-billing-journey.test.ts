import { waitFor } from '@ticketing/testkit';
import {
  companyMessages,
  couponMessages,
  installmentMessages,
  type OrderView,
  type RefundAttentionAnswer,
} from '@ticketing/proto';
import { expireOverdueOrders } from '@ticketing/orders';
import { adminEvent, issueNotasFiscais, orderOf, startSystem, verifiedBuyer } from '../../scripts/lib/system.ts';

let system: Awaited<ReturnType<typeof startSystem>>;
beforeAll(async () => {
  system = await startSystem();
});
afterAll(() => system.stop());

type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;

/** What the provider keeps, read through its own API as a person would in its dashboard. */
async function provider<T = Record<string, unknown>>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await fetch(`${system.sandbox.apiUrl}${path}`, {
    method,
    headers: { access_token: 'chave-do-painel', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface ProviderPayment {
  id: string;
  customer: string;
  value: number;
  status: string;
  installment?: string | null;
  installmentCount?: number;
}
const paymentsOfOrder = async (orderId: string) =>
  (await provider<{ data: ProviderPayment[] }>(`/payments?externalReference=${orderId}&limit=100`)).data;

/** A company of the pharma industry buying for its team. */
const COMPANY = {
  cnpj: '11.222.333/0001-81',
  name: 'Laboratório Vida Saudável Ltda.',
  email: 'financeiro@vidasaudavel.com.br',
  purchaseOrder: 'PC-2026-0457',
};

async function buy(buyer: Buyer, body: Record<string, unknown>) {
  return system.call('POST', '/api/orders', { token: buyer.token, body });
}

async function paid(buyer: Buyer, order: OrderView): Promise<OrderView> {
  system.sandbox.confirm(order.asaasPaymentId!);
  return waitFor(async () => {
    const now = (await orderOf(system, buyer, order.id)) as OrderView;
    return now.status === 'paid' && now.items.every((item) => item.qrCodeData) && now;
  });
}

test('a company buys with its CNPJ: the charge is made out to the company and its finance department gets it by e-mail; a wrong CNPJ is refused', async () => {
  const { eventId } = await adminEvent(system, { title: 'Simpósio de Assuntos Regulatórios', price: '890.00' });
  const buyer = await verifiedBuyer(system);

  const wrong = await buy(buyer, {
    eventId,
    paymentMethod: 'boleto',
    company: { ...COMPANY, cnpj: '11.222.333/0001-82' },
  });
  expect(wrong).toMatchObject({ status: 400, body: { message: companyMessages.cnpjInvalid } });

  const bought = await buy(buyer, { eventId, paymentMethod: 'boleto', company: COMPANY });
  expect(bought.status).toBe(201);
  const order = bought.body.order as OrderView;
  expect(order).toMatchObject({ company: COMPANY, amount: '895.00', installments: 1, discountAmount: '0.00' });
  // The buyer still holds the ticket; the company pays for it.
  expect(order.items).toEqual([expect.objectContaining({ holderName: buyer.name, holderEmail: buyer.email })]);

  const [payment] = await paymentsOfOrder(order.id);
  const customer = await provider<{ cpfCnpj: string; name: string; email: string; personType: string }>(
    `/customers/${payment!.customer}`,
  );
  expect(customer).toMatchObject({
    cpfCnpj: '11222333000181',
    name: COMPANY.name,
    email: COMPANY.email,
    personType: 'JURIDICA',
  });

  // Finance gets how to pay it (the boleto) with the order's summary and its purchase order.
  const toFinance = await waitFor(() =>
    system.catcher.messages().find((mail) => mail.to.includes(COMPANY.email) && mail.text?.includes(order.orderNumber)),
  );
  expect(toFinance.text).toContain(COMPANY.purchaseOrder);
  expect(toFinance.text).toContain(order.payment!.boletoLine!);
  expect(toFinance.text).toContain(buyer.name);

  // The back office finds company orders apart.
  const admin = await system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const companies = await system.call('GET', '/api/admin/orders?company=true&q=11222333000181', {
    token: admin.body.token,
  });
  expect(companies.body.orders).toEqual([
    expect.objectContaining({ id: order.id, company: { cnpj: COMPANY.cnpj, name: COMPANY.name } }),
  ]);
});

test('a card paid in 3x: the charge carries installmentCount 3 and the whole amount; more than the event allows is refused', async () => {
  const { eventId } = await adminEvent(system, {
    title: 'Congresso Brasileiro de Farmácia Hospitalar',
    price: '1290.00',
    maxInstallments: 6,
    minInstallmentValue: '100.00',
  });
  const buyer = await verifiedBuyer(system);

  const tooMany = await buy(buyer, { eventId, paymentMethod: 'credit_card', installments: 7 });
  expect(tooMany).toMatchObject({ status: 422, body: { message: installmentMessages.notAllowed([1, 2, 3, 4, 5, 6]) } });
  const byPix = await buy(buyer, { eventId, paymentMethod: 'pix', installments: 3 });
  expect(byPix).toMatchObject({ status: 400, body: { message: installmentMessages.cardOnly } });

  const bought = await buy(buyer, { eventId, paymentMethod: 'credit_card', installments: 3 });
  expect(bought.status).toBe(201);
  const order = bought.body.order as OrderView;
  expect(order).toMatchObject({ amount: '1295.00', installments: 3 });

  const installments = await paymentsOfOrder(order.id);
  expect(installments).toHaveLength(3);
  expect(installments.every((payment) => payment.installmentCount === 3)).toBe(true);
  const cents = installments.map((payment) => Math.round(payment.value * 100));
  expect(cents.reduce((sum, value) => sum + value, 0)).toBe(129_500);
  const plan = await provider<{ value: number; installmentCount: number }>(
    `/installments/${installments[0]!.installment}`,
  );
  expect(plan).toMatchObject({ value: 1295, installmentCount: 3 });

  // Paid on the provider's page: every installment is confirmed, the order is paid once.
  const done = await paid(buyer, order);
  expect(done).toMatchObject({ status: 'paid', installments: 3 });
});

test('a coupon of 20 % with 2 uses: two orders take it, the third is refused, and an expired order gives its use back', async () => {
  const { eventId, adminToken } = await adminEvent(system, { title: 'Workshop de Farmacoeconomia', price: '150.00' });
  const created = await system.call('POST', '/api/coupons', {
    token: adminToken,
    body: { code: 'farma20', eventId, percentOff: 20, maxUses: 2 },
  });
  expect(created).toMatchObject({ status: 201, body: { code: 'FARMA20', percentOff: 20, maxUses: 2, usedCount: 0 } });

  const buyers = await Promise.all([verifiedBuyer(system), verifiedBuyer(system), verifiedBuyer(system)]);
  const first = await buy(buyers[0]!, { eventId, paymentMethod: 'pix', couponCode: 'Farma20' });
  const second = await buy(buyers[1]!, { eventId, paymentMethod: 'pix', couponCode: 'FARMA20' });
  for (const answer of [first, second]) {
    expect(answer.status).toBe(201);
    // 20 % of the ticket (R$ 150,00), the convenience fee untouched.
    expect(answer.body.order).toMatchObject({ couponCode: 'FARMA20', discountAmount: '30.00', amount: '125.00' });
  }
  const third = await buy(buyers[2]!, { eventId, paymentMethod: 'pix', couponCode: 'FARMA20' });
  expect(third).toMatchObject({ status: 409, body: { message: couponMessages.usedUp } });
  const unknown = await buy(buyers[2]!, { eventId, paymentMethod: 'pix', couponCode: 'NAOEXISTE' });
  expect(unknown).toMatchObject({ status: 400, body: { message: couponMessages.invalid } });

  // The first order's PIX window passes unpaid: its use comes back and the third buyer gets the discount.
  await system.orders
    .db('orders')
    .where({ id: first.body.order.id })
    .update({ expires_at: new Date(Date.now() - 1000) });
  await expireOverdueOrders(system.orders);
  expect(((await orderOf(system, buyers[0]!, first.body.order.id)) as OrderView).status).toBe('expired');
  const retried = await waitFor(async () => {
    const answer = await buy(buyers[2]!, { eventId, paymentMethod: 'pix', couponCode: 'FARMA20' });
    return answer.status === 201 && answer;
  });
  expect(retried.body.order).toMatchObject({ discountAmount: '30.00', amount: '125.00' });
  const listed = await system.call('GET', '/api/coupons?page=1', { token: adminToken });
  expect(listed.body.coupons).toEqual(
    expect.arrayContaining([expect.objectContaining({ code: 'FARMA20', usedCount: 2 })]),
  );
});

test('a paid order gets an authorized nota fiscal whose PDF the profile links, and refunding the order cancels it', async () => {
  const { eventId, adminToken } = await adminEvent(system, { title: 'Curso de Boas Práticas de Fabricação' });
  await issueNotasFiscais(system, adminToken);
  const buyer = await verifiedBuyer(system);
  const bought = await buy(buyer, { eventId, paymentMethod: 'pix' });
  const order = await paid(buyer, bought.body.order as OrderView);

  const invoiced = await waitFor(async () => {
    const now = (await orderOf(system, buyer, order.id)) as OrderView;
    return now.invoice?.status === 'authorized' && now;
  });
  const pdf = await fetch(invoiced.invoice!.pdfUrl!);
  expect(pdf.headers.get('content-type')).toContain('application/pdf');
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const [invoice] = (
    await provider<{ data: { status: string; value: number }[] }>(`/invoices?payment=${order.asaasPaymentId}`)
  ).data;
  expect(invoice).toMatchObject({ status: 'AUTHORIZED', value: 155 });
  const mailed = await system.mailTo(buyer.email, `Nota fiscal do pedido ${order.orderNumber}`);
  expect(mailed.text).toContain(invoiced.invoice!.pdfUrl!);

  const refunded = await system.call('POST', `/api/admin/orders/${order.id}/refund`, {
    token: adminToken,
    body: { reason: 'Participante não pôde comparecer' },
  });
  expect(refunded.status).toBe(202);
  await waitFor(async () => ((await orderOf(system, buyer, order.id)) as OrderView).invoice?.status === 'cancelled');
  const [cancelled] = (await provider<{ data: { status: string }[] }>(`/invoices?payment=${order.asaasPaymentId}`))
    .data;
  expect(cancelled!.status).toBe('CANCELED');
  const detail = await system.call('GET', `/api/admin/orders/${order.id}`, { token: adminToken });
  expect(detail.body.timeline.map((entry: { kind: string }) => entry.kind)).toEqual(
    expect.arrayContaining(['invoice_authorized', 'invoice_cancelled']),
  );
});

test('a boleto buyer withdraws: the bank-details link goes by e-mail and the order shows the refund waiting for it', async () => {
  const { eventId } = await adminEvent(system, { title: 'Jornada de Farmácia Oncológica' });
  const buyer = await verifiedBuyer(system);
  const bought = await buy(buyer, { eventId, paymentMethod: 'boleto' });
  const order = await paid(buyer, bought.body.order as OrderView);

  const withdrawn = await system.call('POST', `/api/orders/${order.id}/withdraw`, { token: buyer.token });
  expect(withdrawn.status).toBe(202);
  const waiting = await waitFor(async () => {
    const now = (await orderOf(system, buyer, order.id)) as OrderView;
    return now.refund?.status === 'awaiting_bank_details' && now;
  });
  expect(waiting).toMatchObject({ status: 'refunded', refund: { reason: 'withdrawal', pending: true } });
  const link = waiting.refund!.bankDetailsUrl!;
  expect(link).toMatch(/^http/);
  // The provider was asked for a boleto refund, never for a card/PIX one.
  const refundCalls = system.sandbox.requests.filter(
    (call) => call.method === 'POST' && call.path.includes(order.asaasPaymentId!) && call.path.includes('/refund'),
  );
  expect(refundCalls.map((call) => call.path)).toEqual([`/payments/${order.asaasPaymentId}/bankSlip/refund`]);
  const mailed = await waitFor(() =>
    system.catcher.messages().find((mail) => mail.to.includes(buyer.email) && mail.text?.includes(link)),
  );
  expect(mailed.text).toContain('Informe seus dados bancários para receber o reembolso');

  // The buyer gives their bank account on the provider's page: the refund is done.
  const form = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      titular: buyer.name,
      cpfCnpj: buyer.cpf,
      banco: '341',
      agencia: '1234',
      conta: '56789-0',
    }).toString(),
  });
  expect(form.status).toBe(200);
  await waitFor(async () => ((await orderOf(system, buyer, order.id)) as OrderView).refund?.status === 'refunded');
});

test('a PIX refund the provider refuses reaches the administrators with its reason, and is done once they try again', async () => {
  const { eventId, adminToken } = await adminEvent(system, { title: 'Encontro de Farmacovigilância' });
  const buyer = await verifiedBuyer(system);
  const bought = await buy(buyer, { eventId, paymentMethod: 'pix' });
  const order = await paid(buyer, bought.body.order as OrderView);

  const reason = 'Saldo insuficiente para realizar o estorno.';
  await provider('/sandbox/refund-refusal', 'POST', { description: reason });
  const refund = await system.call('POST', `/api/admin/orders/${order.id}/refund`, {
    token: adminToken,
    body: { reason: 'Pedido em duplicidade' },
  });
  expect(refund.status).toBe(202);

  const attention = await waitFor(async () => {
    const list = (await system.call('GET', '/api/admin/refunds', { token: adminToken })).body as RefundAttentionAnswer;
    return list.refunds.find((row) => row.orderId === order.id);
  });
  expect(attention).toMatchObject({ orderNumber: order.orderNumber, amount: '155.00', paymentMethod: 'pix' });
  expect(attention.refusal).toContain(reason);
  expect(((await orderOf(system, buyer, order.id)) as OrderView).refund).toMatchObject({ status: 'refused' });
  const detail = await system.call('GET', `/api/admin/orders/${order.id}`, { token: adminToken });
  expect(detail.body.timeline).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ kind: 'refund_refused', detail: expect.stringContaining(reason) }),
    ]),
  );

  // The balance is topped up; an administrator tries again and the money goes back.
  await provider('/sandbox/refund-refusal', 'DELETE');
  const retried = await system.call('POST', `/api/admin/orders/${order.id}/refund/retry`, { token: adminToken });
  expect(retried.status).toBe(200);
  await waitFor(async () => ((await orderOf(system, buyer, order.id)) as OrderView).refund?.status === 'refunded');
  const after = (await system.call('GET', '/api/admin/refunds', { token: adminToken })).body as RefundAttentionAnswer;
  expect(after.refunds.some((row) => row.orderId === order.id)).toBe(false);
});
