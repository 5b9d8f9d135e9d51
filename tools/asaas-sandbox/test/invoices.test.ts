import { waitFor } from '@ticketing/testkit';
import { startTestSandbox, type TestSandbox } from './support.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ invoiceDelayMs: 150 });
});
afterAll(() => t.close());

const fiscal = {
  serviceDescription: 'Inscrição no Congresso de Farmácia Clínica',
  observations: 'Pedido 2026-000123',
  deductions: 0,
  effectiveDate: '2026-12-01',
  municipalServiceCode: '08.02',
  municipalServiceName: 'Instrução, treinamento e congêneres',
  taxes: { retainIss: false, iss: 2, cofins: 0, csll: 0, inss: 0, ir: 0, pis: 0 },
};

async function paidPayment() {
  const payment = await t.newPayment({ billingType: 'PIX', value: 155 });
  t.sandbox.confirm(payment.id);
  return payment;
}

const newInvoice = (payment: { id: string; value: number }, fields: Record<string, unknown> = {}) =>
  t.ok('POST', '/invoices', {
    payment: payment.id,
    value: payment.value,
    externalReference: payment.id,
    ...fiscal,
    ...fields,
  });

const statusOf = async (id: string) => (await t.ok('GET', `/invoices/${id}`)).status as string;

/** Each object's byte offset in the cross-reference table, read back from the file. */
function xrefOffsets(pdf: string): number[] {
  const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
  expect(pdf.slice(start, start + 5)).toBe('xref\n');
  const [, count] = /^xref\n0 (\d+)\n/.exec(pdf.slice(start))!;
  const rows = pdf
    .slice(start)
    .split('\n')
    .slice(3, 2 + Number(count));
  return rows.map((row) => Number(row.slice(0, 10)));
}

test('a nota fiscal is SCHEDULED, then AUTHORIZED with its number and a real PDF, each step a webhook', async () => {
  const payment = await paidPayment();
  const invoice = await newInvoice(payment);
  expect(invoice).toEqual({
    object: 'invoice',
    id: expect.stringMatching(/^inv_\d{12}$/),
    status: 'SCHEDULED',
    customer: payment.customer,
    payment: payment.id,
    installment: null,
    type: 'NFS-e',
    statusDescription: null,
    serviceDescription: fiscal.serviceDescription,
    observations: fiscal.observations,
    value: 155,
    deductions: 0,
    effectiveDate: '2026-12-01',
    externalReference: payment.id,
    municipalServiceId: null,
    municipalServiceCode: '08.02',
    municipalServiceName: fiscal.municipalServiceName,
    taxes: fiscal.taxes,
    pdfUrl: null,
    xmlUrl: null,
    number: null,
    rpsSerie: null,
    rpsNumber: null,
    validationCode: null,
    dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  });

  await waitFor(async () => (await statusOf(invoice.id)) === 'AUTHORIZED');
  const authorized = await t.ok('GET', `/invoices/${invoice.id}`);
  expect(authorized).toMatchObject({
    status: 'AUTHORIZED',
    number: expect.stringMatching(/^\d+$/),
    pdfUrl: `${t.sandbox.url}/nfse/${invoice.id}.pdf`,
    xmlUrl: `${t.sandbox.url}/nfse/${invoice.id}.xml`,
    statusDescription: null,
  });
  await t.settled();
  expect(t.eventsOf(invoice.id).sort()).toEqual(['INVOICE_AUTHORIZED', 'INVOICE_CREATED']);
  const delivery = t.received.find(
    (one) => one.body.event === 'INVOICE_AUTHORIZED' && one.body.invoice.id === invoice.id,
  )!;
  expect(delivery.headers['asaas-access-token']).toBe('segredo-do-webhook');
  expect(delivery.body).toEqual({
    id: expect.stringMatching(/^evt_/),
    event: 'INVOICE_AUTHORIZED',
    dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    invoice: authorized,
  });

  const pdf = await fetch(authorized.pdfUrl);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
  expect(bytes.startsWith('%PDF-1.')).toBe(true);
  expect(bytes).toContain(`(NFS-e nº ${authorized.number})`);
  expect(bytes).toContain('/Type /Page ');
  const offsets = xrefOffsets(bytes);
  expect(offsets.length).toBeGreaterThanOrEqual(4);
  offsets.forEach((offset, i) => expect(bytes.slice(offset).startsWith(`${i + 1} 0 obj\n`)).toBe(true));
  const stream = /<< \/Length (\d+) >>\nstream\n/.exec(bytes)!;
  const end = stream.index + stream[0].length + Number(stream[1]);
  expect(bytes.slice(end, end + 10)).toBe('\nendstream');

  const xml = await fetch(authorized.xmlUrl);
  expect(xml.headers.get('content-type')).toContain('xml');
  expect(await xml.text()).toContain(`<Numero>${authorized.number}</Numero>`);
  expect((await fetch(`${t.sandbox.url}/nfse/inv_000000000000.pdf`)).status).toBe(404);
});

test('the invoice-errors control makes the next nota fiscal end in ERROR with its description, once', async () => {
  const description = 'Código de serviço municipal inexistente na prefeitura.';
  expect(await t.ok('POST', '/sandbox/invoice-errors', { description })).toMatchObject({
    invoiceErrors: [description],
  });
  const payment = await paidPayment();
  const refused = await newInvoice(payment);
  const next = await newInvoice(payment);
  expect(await t.ok('GET', '/sandbox/faults')).toMatchObject({ invoiceErrors: [] });
  await waitFor(async () => (await statusOf(refused.id)) === 'ERROR' && (await statusOf(next.id)) === 'AUTHORIZED');
  expect(await t.ok('GET', `/invoices/${refused.id}`)).toMatchObject({
    status: 'ERROR',
    statusDescription: description,
    number: null,
    pdfUrl: null,
  });
  await t.settled();
  const delivery = t.received.find((one) => one.body.event === 'INVOICE_ERROR' && one.body.invoice.id === refused.id);
  expect(delivery!.body.invoice).toMatchObject({ status: 'ERROR', statusDescription: description });
});

test('notas fiscais are listed by payment, external reference and status in the list shape', async () => {
  const payment = await paidPayment();
  const other = await paidPayment();
  const first = await newInvoice(payment);
  const second = await newInvoice(payment, { externalReference: 'nota-2' });
  await newInvoice(other);
  const byPayment = await t.ok('GET', `/invoices?payment=${payment.id}`);
  expect(byPayment).toEqual({
    object: 'list',
    hasMore: false,
    totalCount: 2,
    limit: 10,
    offset: 0,
    data: [expect.objectContaining({ id: first.id }), expect.objectContaining({ id: second.id })],
  });
  expect((await t.ok('GET', '/invoices?externalReference=nota-2')).data.map((i: { id: string }) => i.id)).toEqual([
    second.id,
  ]);
  await waitFor(async () => (await statusOf(second.id)) === 'AUTHORIZED');
  const authorized = await t.ok('GET', `/invoices?payment=${payment.id}&status=AUTHORIZED`);
  expect(authorized.data.map((i: { id: string }) => i.id)).toEqual([first.id, second.id]);
  expect(await t.ok('GET', `/invoices?payment=${payment.id}&status=CANCELED`)).toMatchObject({ totalCount: 0 });
});

test('cancelling goes through PROCESSING_CANCELLATION to CANCELED; again, it answers the same', async () => {
  const payment = await paidPayment();
  const invoice = await newInvoice(payment);
  await waitFor(async () => (await statusOf(invoice.id)) === 'AUTHORIZED');
  const cancelled = await t.ok('POST', `/invoices/${invoice.id}/cancel`);
  expect(cancelled).toMatchObject({ id: invoice.id, status: 'CANCELED', number: expect.any(String) });
  expect(await t.ok('POST', `/invoices/${invoice.id}/cancel`)).toEqual(cancelled);
  expect(await statusOf(invoice.id)).toBe('CANCELED');
  const sent = t.sandbox.invoiceNotifications.filter((n) => n.invoice.id === invoice.id);
  expect(sent.map((n) => [n.event, n.invoice.status])).toEqual([
    ['INVOICE_CREATED', 'SCHEDULED'],
    ['INVOICE_AUTHORIZED', 'AUTHORIZED'],
    ['INVOICE_PROCESSING_CANCELLATION', 'PROCESSING_CANCELLATION'],
    ['INVOICE_CANCELED', 'CANCELED'],
  ]);
  await t.settled();
  expect(t.eventsOf(invoice.id)).toContain('INVOICE_CANCELED');
});

test('a nota fiscal cancelled while scheduled is never authorized', async () => {
  // The default delay (2 s): the cancel surely comes while the nota fiscal is still scheduled.
  const slow = await startTestSandbox();
  try {
    const payment = await slow.newPayment();
    slow.sandbox.confirm(payment.id);
    const ask = () => slow.ok('POST', '/invoices', { payment: payment.id, ...fiscal });
    const cancelled = await ask();
    expect(await slow.ok('POST', `/invoices/${cancelled.id}/cancel`)).toMatchObject({ status: 'CANCELED' });
    // Decided in the order they were asked for: once the later one is authorized, the cancelled one's turn has passed.
    const later = await ask();
    await waitFor(async () => (await slow.ok('GET', `/invoices/${later.id}`)).status === 'AUTHORIZED');
    expect(await slow.ok('GET', `/invoices/${cancelled.id}`)).toMatchObject({ status: 'CANCELED', number: null });
    expect(slow.sandbox.invoiceNotifications.map((n) => [n.invoice.id, n.event])).not.toContainEqual([
      cancelled.id,
      'INVOICE_AUTHORIZED',
    ]);
  } finally {
    await slow.close();
  }
});

test('a nota fiscal needs a known payment and a municipal service; bad values are refused', async () => {
  const payment = await paidPayment();
  const before = t.sandbox.invoices.size;
  const cases: [Record<string, unknown>, string][] = [
    [{ payment: undefined }, 'invalid_payment'],
    [{ payment: 'pay_desconhecido' }, 'invalid_payment'],
    [{ municipalServiceCode: undefined }, 'invalid_municipalService'],
    [{ municipalServiceCode: '  ' }, 'invalid_municipalService'],
    [{ value: 0 }, 'invalid_value'],
    [{ deductions: -1 }, 'invalid_deductions'],
    [{ effectiveDate: '2026-02-30' }, 'invalid_effectiveDate'],
    [{ taxes: { iss: 'dois' } }, 'invalid_taxes'],
  ];
  for (const [fields, code] of cases) {
    expect(await t.api('POST', '/invoices', { payment: payment.id, ...fiscal, ...fields })).toEqual({
      status: 400,
      body: { errors: [{ code, description: expect.any(String) }] },
    });
  }
  expect(t.sandbox.invoices.size).toBe(before);
  expect(await t.api('GET', '/invoices/inv_000000000000')).toMatchObject({ status: 404 });
  expect(await newInvoice(payment, { municipalServiceCode: undefined, municipalServiceId: '123456' })).toMatchObject({
    municipalServiceId: '123456',
    municipalServiceCode: null,
  });
});
