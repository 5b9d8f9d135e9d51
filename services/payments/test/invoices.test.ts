import { randomUUID } from 'node:crypto';
import {
  fiscalMessages,
  type ChargeList,
  type ChargeView,
  type FiscalSettingsAnswer,
  type InvoiceListAnswer,
} from '@ticketing/proto';
import { chargeRequest, startPayments, waitFor, type Harness } from './support.ts';

let payments: Harness;

beforeAll(async () => {
  payments = await startPayments({ INVOICE_SWEEP_MS: '200' });
});
afterAll(() => payments.stop());

const SETTINGS = {
  enabled: true,
  serviceDescription: 'Inscrição em evento de capacitação farmacêutica',
  municipalServiceCode: '08.02',
  municipalServiceName: 'Instrução, treinamento, orientação pedagógica e educacional',
  issRate: 2.5,
  deductions: '10.00',
  retainIss: false,
};

const asAdmin = (method: string, path: string, body?: unknown, token = payments.adminToken) =>
  payments.request(method, path, { body, headers: token ? { authorization: `Bearer ${token}` } : {} });
const saveSettings = async (settings: Record<string, unknown>) => {
  const response = await asAdmin('PUT', '/api/payments/fiscal-settings', settings);
  expect(response.status).toBe(200);
  return (await response.json()) as FiscalSettingsAnswer;
};

const invoiceRow = (orderId: string) => payments.service.db('invoices').where({ order_id: orderId }).first();
const invoiceEvents = async (orderId: string) =>
  (await payments.events(orderId)).filter((event) => event.type === 'invoice.changed').map((event) => event.payload);

/** A paid PIX charge made out to a company's finance department. */
async function paidOrder(orderNumber: string) {
  const orderId = randomUUID();
  const request = chargeRequest({
    amount: '250.00',
    orderNumber,
    customer: {
      userId: randomUUID(),
      name: 'Farmácia Exemplo Ltda',
      cnpj: '12.ABC.345/01DE-35',
      email: 'nf@farmacia.example',
    },
  });
  const response = await payments.putCharge(orderId, request);
  expect(response.status).toBe(200);
  const { paymentId } = (await response.json()) as ChargeView;
  payments.sandbox.confirm(paymentId);
  await waitFor(async () => (await payments.chargeRow(orderId))?.status === 'paid');
  return { orderId, paymentId };
}

test('fiscal settings are for administrators, validated with clear messages, and kept', async () => {
  expect((await asAdmin('GET', '/api/payments/fiscal-settings', undefined, '')).status).toBe(401);
  for (const [method, body] of [
    ['GET', undefined],
    ['PUT', SETTINGS],
  ] as const) {
    const forbidden = await asAdmin(method, '/api/payments/fiscal-settings', body, payments.userToken);
    expect(forbidden.status).toBe(403);
  }
  expect((await asAdmin('GET', '/api/payments/invoices?status=error', undefined, payments.userToken)).status).toBe(403);
  const before = await asAdmin('GET', '/api/payments/fiscal-settings');
  expect(await before.json()).toEqual({ settings: null });

  for (const [change, message] of [
    [{ issRate: 7 }, fiscalMessages.issRate],
    [{ issRate: -1 }, fiscalMessages.issRate],
    [{ serviceDescription: 'ab' }, fiscalMessages.serviceDescription],
    [{ municipalServiceCode: '', municipalServiceId: null }, fiscalMessages.municipalService],
    [{ municipalServiceCode: 'x'.repeat(61) }, fiscalMessages.municipalServiceLength],
    [{ deductions: '-1.00' }, fiscalMessages.deductions],
    [{ enabled: 'sim' }, fiscalMessages.invalid],
  ] as const) {
    const refused = await asAdmin('PUT', '/api/payments/fiscal-settings', { ...SETTINGS, ...change });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message });
  }
  expect(await payments.service.db('fiscal_settings')).toEqual([]);

  // While disabled, a paid order gets no note.
  await saveSettings({ ...SETTINGS, enabled: false });
  const { orderId } = await paidOrder('PED-1');
  expect(await invoiceRow(orderId)).toBeUndefined();

  const saved = await saveSettings(SETTINGS);
  expect(saved).toEqual({
    settings: {
      ...SETTINGS,
      municipalServiceId: null,
      updatedAt: expect.stringMatching(/Z$/),
    },
  });
  expect(await (await asAdmin('GET', '/api/payments/fiscal-settings')).json()).toEqual(saved);
});

test('a paid order gets its nota fiscal: scheduled at the provider as set, then authorized with its PDF', async () => {
  await saveSettings(SETTINGS);
  const { orderId, paymentId } = await paidOrder('PED-2026-000777');
  await waitFor(async () => (await invoiceRow(orderId))?.status === 'authorized');

  const row = await invoiceRow(orderId);
  const invoice = (await (await payments.provider('GET', `/invoices/${row.invoice_id}`)).json()) as Record<
    string,
    unknown
  >;
  const brasiliaToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  expect(invoice).toMatchObject({
    status: 'AUTHORIZED',
    payment: paymentId,
    externalReference: orderId,
    value: 250,
    deductions: 10,
    effectiveDate: brasiliaToday,
    serviceDescription: SETTINGS.serviceDescription,
    municipalServiceCode: '08.02',
    municipalServiceName: SETTINGS.municipalServiceName,
    observations: expect.stringContaining('PED-2026-000777'),
    taxes: { retainIss: false, iss: 2.5, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 },
    pdfUrl: expect.stringMatching(/^http/),
  });
  expect(payments.calls('POST', '/invoices')).toHaveLength(1);
  expect(row).toMatchObject({ status: 'authorized', pdf_url: invoice.pdfUrl, value: '250.00', reason: null });

  const recipient = { name: 'Farmácia Exemplo Ltda', email: 'nf@farmacia.example' };
  const common = { orderId, orderNumber: 'PED-2026-000777', invoiceId: row.invoice_id, reason: null, recipient };
  expect(await invoiceEvents(orderId)).toEqual([
    { ...common, status: 'scheduled', pdfUrl: null, at: expect.any(String) },
    { ...common, status: 'authorized', pdfUrl: invoice.pdfUrl, at: expect.any(String) },
  ]);
  await payments.webhooksSettled();
  const { charges } = (await (
    await payments.request('GET', `/internal/charges?orderIds=${orderId}`)
  ).json()) as ChargeList;
  expect(charges[0]).toMatchObject({ invoice: { status: 'authorized', pdfUrl: invoice.pdfUrl } });
  // Late or repeated notifications move nothing.
  expect(await invoiceEvents(orderId)).toHaveLength(2);
});

test('a note the city refuses is listed for the administrators, counted and logged with its reason', async () => {
  await saveSettings(SETTINGS);
  const reason = 'Inscrição municipal do prestador não encontrada.';
  expect((await payments.provider('POST', '/sandbox/invoice-errors', { description: reason })).status).toBe(200);
  const failedBefore = await payments.metric('payments_invoices_failed_total');
  const { orderId } = await paidOrder('PED-2026-000888');
  await waitFor(async () => (await invoiceRow(orderId))?.status === 'error');

  expect(await invoiceRow(orderId)).toMatchObject({ status: 'error', reason });
  expect(await payments.metric('payments_invoices_failed_total')).toBe(failedBefore + 1);
  expect(payments.logLines('nota fiscal refused')).toContainEqual(
    expect.objectContaining({ orderId, reason, level: 50 }),
  );
  expect((await invoiceEvents(orderId)).map((event) => [event.status, event.reason])).toEqual([
    ['scheduled', null],
    ['error', reason],
  ]);

  const list = await asAdmin('GET', '/api/payments/invoices?status=error');
  expect(list.status).toBe(200);
  const { invoices } = (await list.json()) as InvoiceListAnswer;
  expect(invoices[0]).toEqual({
    orderId,
    orderNumber: 'PED-2026-000888',
    invoiceId: expect.stringMatching(/^inv_/),
    status: 'error',
    reason,
    value: '250.00',
    updatedAt: expect.stringMatching(/Z$/),
  });
  expect((await asAdmin('GET', '/api/payments/invoices?status=perdida')).status).toBe(400);
});

test('a refunded order has its nota fiscal cancelled at the provider', async () => {
  await saveSettings(SETTINGS);
  const { orderId } = await paidOrder('PED-2026-000999');
  await waitFor(async () => (await invoiceRow(orderId))?.status === 'authorized');
  const { invoice_id: invoiceId } = await invoiceRow(orderId);

  expect((await payments.request('POST', `/internal/charges/${orderId}/refund`)).status).toBe(200);
  await waitFor(async () => (await invoiceRow(orderId))?.status === 'cancelled');
  await payments.webhooksSettled();
  expect(payments.calls('POST', `/invoices/${invoiceId}/cancel`)).toHaveLength(1);
  expect(await invoiceRow(orderId)).toMatchObject({ cancel_requested_at: expect.any(Date) });
  const statuses = (await invoiceEvents(orderId)).map((event) => event.status);
  expect(statuses).toEqual(['scheduled', 'authorized', 'cancelled']);
});
