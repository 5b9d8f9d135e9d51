import { randomUUID } from 'node:crypto';
import { paymentsClient } from '../src/clients/payments.ts';
import { sendOwedRefunds } from '../src/index.ts';
import { bought, json, paymentConfirmed, startOrders, type Harness } from './support.ts';

/**
 * How a refund ends at the provider (a boleto's waits for the payer's bank details; a refusal waits for an
 * administrator), notas fiscais on the timeline, and company purchases in the back office's search.
 */
let h: Harness;

beforeAll(async () => {
  h = await startOrders({ env: { ORDER_REFUND_RETRY_MS: String(3_600_000) } });
});
afterAll(() => h.stop());

const paymentsDeps = () => ({
  db: h.orders.db,
  outbox: h.orders.outbox,
  logger: h.orders.logger,
  payments: paymentsClient(h.payments.url, 5000, h.orders),
});

async function paidOrder(method: 'pix' | 'boleto' = 'pix') {
  const who = await h.buyer();
  const { order } = await bought(h, who, (await h.createEvent()).id, method);
  await paymentConfirmed(h, order.id);
  return { who, order };
}

const refund = (orderId: string) =>
  h.request('POST', `/api/admin/orders/${orderId}/refund`, {
    token: h.adminToken,
    body: { reason: 'Comprador não poderá comparecer' },
  });
const adminOrder = async (orderId: string) =>
  json(await h.request('GET', `/api/admin/orders/${orderId}`, { token: h.adminToken }));

test('a paid boleto refund waits for the bank details: order.refunded carries the page, the order shows it', async () => {
  const { who, order } = await paidOrder('boleto');

  const response = await refund(order.id);
  expect(response.status).toBe(202);
  const bankDetailsUrl = h.payments.refunds.get(order.id)!.bankDetailsUrl;
  expect(bankDetailsUrl).toMatch(/^https:\/\//);
  const answered = await json(response);
  expect(answered.order.refund).toEqual({
    reason: 'refund',
    pending: true,
    requestedAt: expect.any(String),
    status: 'awaiting_bank_details',
    bankDetailsUrl,
  });
  expect(await h.events('order.refunded', order.id)).toEqual([expect.objectContaining({ bankDetailsUrl })]);
  const listed = await json(await h.request('GET', '/api/orders', { token: who.token }));
  expect(listed.orders[0].refund).toMatchObject({ status: 'awaiting_bank_details', bankDetailsUrl, pending: true });
  const { timeline } = await adminOrder(order.id);
  expect(timeline).toContainEqual(
    expect.objectContaining({ kind: 'refund_awaiting_bank_details', detail: bankDetailsUrl }),
  );

  // The payer gave the bank account; the provider's later refund of the charge changes nothing here.
  const row = await h.orderRow(order.id);
  await h.handled(
    await h.publish('payment.refunded', {
      orderId: order.id,
      paymentId: row.asaas_payment_id,
      providerStatus: 'REFUNDED',
      reason: 'refund',
    }),
  );
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
  expect(await h.orderRow(order.id)).toMatchObject({ status: 'refunded', refund_owed_since: null });
  // Payments says it is done: so does the order.
  h.payments.refunds.set(order.id, { status: 'refunded', bankDetailsUrl: null });
  expect((await adminOrder(order.id)).order.refund).toMatchObject({ status: 'refunded', pending: false });
});

test('a refused refund is kept with the provider words, left alone by the job, listed and retried by an administrator', async () => {
  const { order } = await paidOrder('pix');
  h.payments.behaviour.refund = 'refuse';
  h.payments.behaviour.refusal = 'Saldo insuficiente para estorno';
  try {
    expect((await refund(order.id)).status).toBe(202);
    expect(await h.orderRow(order.id)).toMatchObject({
      status: 'refunded',
      refund_owed_since: expect.any(Date),
      refund_refused_at: expect.any(Date),
      refund_refusal: 'Saldo insuficiente para estorno',
    });
    const detail = await adminOrder(order.id);
    expect(detail.order.refund).toMatchObject({ status: 'refused', pending: true });
    expect(detail.timeline).toContainEqual(
      expect.objectContaining({ kind: 'refund_refused', detail: 'Saldo insuficiente para estorno' }),
    );

    // The retry job does not ask again: the same refusal would come back.
    const calls = h.payments.callsFor(order.id, 'refund').length;
    expect(await sendOwedRefunds(paymentsDeps())).not.toContain(order.id);
    expect(h.payments.callsFor(order.id, 'refund')).toHaveLength(calls);

    const list = await h.request('GET', '/api/admin/refunds', { token: h.adminToken });
    expect(list.status).toBe(200);
    expect((await json(list)).refunds).toContainEqual({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: '155.00',
      paymentMethod: 'pix',
      reason: 'refund',
      refusal: 'Saldo insuficiente para estorno',
      refusedAt: expect.any(String),
      buyer: expect.objectContaining({ name: expect.any(String) }),
      event: expect.objectContaining({ id: (await h.orderRow(order.id)).event_id }),
    });
  } finally {
    h.payments.behaviour.refund = 'ok';
  }

  const buyerToken = await h.issuer.sign({ id: randomUUID(), name: 'Comprador' });
  expect((await h.request('GET', '/api/admin/refunds', { token: buyerToken })).status).toBe(403);
  const forbidden = await h.request('POST', `/api/admin/orders/${order.id}/refund/retry`, { token: buyerToken });
  expect(forbidden.status).toBe(403);

  const retried = await h.request('POST', `/api/admin/orders/${order.id}/refund/retry`, { token: h.adminToken });
  expect(retried.status).toBe(200);
  const answer = await json(retried);
  expect(answer.order).toMatchObject({
    id: order.id,
    status: 'refunded',
    refund: { status: 'refunded', pending: false },
  });
  expect(answer.timeline.map((entry: { kind: string }) => entry.kind)).toEqual(
    expect.arrayContaining(['refund_refused', 'refund_requested', 'refunded']),
  );
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
  expect(await h.orderRow(order.id)).toMatchObject({ refund_owed_since: null, refund_refused_at: null });
  expect(
    (await json(await h.request('GET', '/api/admin/refunds', { token: h.adminToken }))).refunds,
  ).not.toContainEqual(expect.objectContaining({ orderId: order.id }));

  // Nothing refused is left to retry.
  const again = await h.request('POST', `/api/admin/orders/${order.id}/refund/retry`, { token: h.adminToken });
  expect(again.status).toBe(409);
  expect(await json(again)).toEqual({
    message: 'Este pedido não tem um reembolso recusado pelo provedor para tentar de novo.',
  });
});

test('an outage still leaves the refund to the retry job', async () => {
  const { order } = await paidOrder('pix');
  h.payments.behaviour.refund = 'down';
  try {
    expect((await refund(order.id)).status).toBe(202);
  } finally {
    h.payments.behaviour.refund = 'ok';
  }
  expect(await h.orderRow(order.id)).toMatchObject({ refund_owed_since: expect.any(Date), refund_refused_at: null });
  expect((await adminOrder(order.id)).order.refund).toMatchObject({ status: 'requested', pending: true });
  expect(await sendOwedRefunds(paymentsDeps())).toContain(order.id);
  expect(await h.events('order.refunded', order.id)).toHaveLength(1);
});

test('a nota fiscal authorized, refused or cancelled goes on the timeline; the order shows it from payments', async () => {
  const { order } = await paidOrder('pix');
  const change = (status: 'scheduled' | 'authorized' | 'error' | 'cancelled', extra: Record<string, unknown> = {}) =>
    h.publish('invoice.changed', {
      orderId: order.id,
      orderNumber: order.orderNumber,
      invoiceId: 'inv_000123',
      status,
      pdfUrl: null,
      reason: null,
      recipient: { name: 'Maria da Silva', email: 'maria@exemplo.com.br' },
      at: new Date().toISOString(),
      ...extra,
    });
  for (const event of [
    await change('scheduled'),
    await change('error', { reason: 'Código de serviço municipal inválido' }),
    await change('authorized', { pdfUrl: 'https://sandbox.asaas.com/nf/inv_000123.pdf' }),
    await change('cancelled'),
  ]) {
    await h.handled(event);
  }
  h.payments.invoices.set(order.id, { status: 'authorized', pdfUrl: 'https://sandbox.asaas.com/nf/inv_000123.pdf' });
  const { order: shown, timeline } = await adminOrder(order.id);
  expect(shown.invoice).toEqual({ status: 'authorized', pdfUrl: 'https://sandbox.asaas.com/nf/inv_000123.pdf' });
  expect(timeline.filter((entry: { kind: string }) => entry.kind.startsWith('invoice_'))).toEqual([
    expect.objectContaining({ kind: 'invoice_error', detail: 'Código de serviço municipal inválido' }),
    expect.objectContaining({ kind: 'invoice_authorized', detail: 'https://sandbox.asaas.com/nf/inv_000123.pdf' }),
    expect.objectContaining({ kind: 'invoice_cancelled', detail: null }),
  ]);

  // Payments not answering: the order is still answered, without what payments knows.
  h.payments.behaviour.read = 'down';
  try {
    const unanswered = await h.request('GET', `/api/admin/orders/${order.id}`, { token: h.adminToken });
    expect(unanswered.status).toBe(200);
    expect((await json(unanswered)).order).toMatchObject({ id: order.id, invoice: null });
  } finally {
    h.payments.behaviour.read = 'ok';
  }
});

test('the back office finds company orders by CNPJ (with or without punctuation) and razão social, and filters them', async () => {
  const event = await h.createEvent();
  const suffix = randomUUID().slice(0, 6);
  const company = {
    cnpj: '45.723.174/0001-10',
    name: `Laboratório Vida Plena ${suffix} S.A.`,
    email: 'fin@vidaplena.com.br',
  };
  const { order: forCompany } = await json(
    await h.buy(await h.buyer(), { eventId: event.id, paymentMethod: 'pix', company }),
  );
  const { order: personal } = await bought(h, await h.buyer(), event.id);
  const search = async (query: string) =>
    json(await h.request('GET', `/api/admin/orders?${query}`, { token: h.adminToken }));
  const ids = async (query: string) => (await search(query)).orders.map((row: { id: string }) => row.id);

  for (const q of ['45.723.174/0001-10', '45723174000110', `vida plena ${suffix}`]) {
    expect(await ids(`q=${encodeURIComponent(q)}`)).toEqual([forCompany.id]);
  }
  const companies = await ids('company=true');
  expect(companies).toContain(forCompany.id);
  expect(companies).not.toContain(personal.id);
  expect(await ids('company=false')).toContain(personal.id);
  expect(await ids('company=false')).not.toContain(forCompany.id);
  const [row] = (await search(`q=${forCompany.id}`)).orders;
  expect(row.company).toEqual({ cnpj: company.cnpj, name: company.name });

  const bad = await h.request('GET', '/api/admin/orders?company=sim', { token: h.adminToken });
  expect(bad.status).toBe(400);
  expect(await json(bad)).toEqual({ message: 'Filtro de empresa inválido' });
});
