import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeCpf, readQrCode, waitFor } from '@ticketing/testkit';
import { ASAAS_WEBHOOK_EVENTS } from '@ticketing/proto';
import { dueDateFactor } from '../src/boleto.ts';
import { startSandbox, type Sandbox } from '../src/sandbox.ts';

const API_KEY = '$aact_hmlg_test_key';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Written here from the specification (table-driven), independent of the sandbox's own code. */
function crc16CcittFalse(text: string): string {
  const table = Array.from({ length: 256 }, (_, n) => {
    let crc = n << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    return crc & 0xffff;
  });
  let crc = 0xffff;
  for (const byte of Buffer.from(text)) crc = ((crc << 8) ^ table[((crc >> 8) ^ byte) & 0xff]!) & 0xffff;
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    fields[id] = text.slice(at + 4, at + 4 + length);
    at += 4 + length;
  }
  expect(at).toBe(text.length);
  return fields;
}

const mod10 = (digits: string) => {
  const sum = [...digits]
    .reverse()
    .map((d, i) => Number(d) * (i % 2 === 0 ? 2 : 1))
    .reduce((total, n) => total + Math.floor(n / 10) + (n % 10), 0);
  return (10 - (sum % 10)) % 10;
};
const mod11 = (digits: string) => {
  const sum = [...digits].reverse().reduce((total, d, i) => total + Number(d) * (2 + (i % 8)), 0);
  const dv = 11 - (sum % 11);
  return dv >= 10 || dv === 0 ? 1 : dv;
};

let sandbox: Sandbox;
let receiver: Server;
let received: { headers: IncomingMessage['headers']; body: any }[] = [];
/** Statuses the test receiver answers with, in order; 200 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
    res.writeHead(answers.shift() ?? 200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sandbox = await startSandbox({
    apiKey: API_KEY,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
    webhookToken: 'segredo-do-webhook',
    webhookRetryScale: 0.001,
  });
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
  received = [];
  answers = [];
});

const api = (method: string, path: string, body?: unknown, key: string | null = API_KEY) =>
  fetch(sandbox.apiUrl + path, {
    method,
    headers: { ...(key === null ? {} : { access_token: key }), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newCustomer(fields: Record<string, unknown> = {}) {
  const response = await api('POST', '/customers', { name: 'João Ninguém', cpfCnpj: makeCpf(), ...fields });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; cpfCnpj: string };
}

async function newPayment(fields: Record<string, unknown> = {}) {
  const customer = await newCustomer();
  const response = await api('POST', '/payments', {
    customer: customer.id,
    billingType: 'PIX',
    value: 155,
    dueDate: inDays(3),
    externalReference: `pedido-${Math.random()}`,
    ...fields,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

const settled = () => waitFor(() => sandbox.pendingWebhooks === 0);

test('CRC16-CCITT-FALSE of the check string is 29B1 (the reference value)', () => {
  expect(crc16CcittFalse('123456789')).toBe('29B1');
});

test('/healthz answers while the sandbox listens; other paths outside the API are pages', async () => {
  const health = await fetch(`${sandbox.url}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  expect((await fetch(`${sandbox.url}/healthzz`)).status).toBe(404);
});

test('the API refuses calls without the access_token header, or with another key', async () => {
  for (const key of [null, '', 'outra-chave']) {
    const response = await api('GET', '/customers', undefined, key);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida.' }],
    });
  }
  expect(sandbox.requests.filter((call) => call.path === '/customers' && call.method === 'GET')).toEqual([]);
});

test('customers: created with 200, found by cpfCnpj and externalReference in the list shape; bad CPF is a 400', async () => {
  const cpf = makeCpf();
  const created = await newCustomer({ cpfCnpj: cpf, externalReference: 'usuario-1', email: 'joao@example.com' });
  expect(created).toMatchObject({
    object: 'customer',
    id: expect.stringMatching(/^cus_\d{12}$/),
    cpfCnpj: cpf.replace(/\D/g, ''),
  });

  for (const query of [`cpfCnpj=${cpf.replace(/\D/g, '')}`, 'externalReference=usuario-1']) {
    const response = await api('GET', `/customers?${query}`);
    expect(await response.json()).toEqual({
      object: 'list',
      hasMore: false,
      totalCount: 1,
      limit: 10,
      offset: 0,
      data: [expect.objectContaining({ id: created.id, externalReference: 'usuario-1', email: 'joao@example.com' })],
    });
  }
  const none = await api('GET', '/customers?cpfCnpj=00000000191');
  expect(await none.json()).toMatchObject({ totalCount: 0, data: [] });

  const refused = await api('POST', '/customers', { name: 'X', cpfCnpj: '123.456.789-00' });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toEqual({
    errors: [{ code: 'invalid_cpfCnpj', description: 'O CPF/CNPJ informado é inválido.' }],
  });
});

test('payments: create, read, list by externalReference and status; validation stops at the first error', async () => {
  const payment = await newPayment({ externalReference: 'pedido-lista', description: 'Ingresso' });
  expect(payment).toMatchObject({
    object: 'payment',
    id: expect.stringMatching(/^pay_/),
    status: 'PENDING',
    value: 155,
    billingType: 'PIX',
    deleted: false,
    bankSlipUrl: null,
    externalReference: 'pedido-lista',
    invoiceUrl: `${sandbox.url}/i/${payment.id}`,
  });
  expect(await (await api('GET', `/payments/${payment.id}`)).json()).toEqual(payment);
  const list = (await (await api('GET', '/payments?externalReference=pedido-lista&status=PENDING')).json()) as object;
  expect(list).toMatchObject({ object: 'list', totalCount: 1, data: [{ id: payment.id }] });
  const received = (await (await api('GET', '/payments?externalReference=pedido-lista&status=RECEIVED')).json()) as {
    data: unknown[];
  };
  expect(received.data).toEqual([]);

  const missing = await api('GET', '/payments/pay_inexistente');
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ errors: [expect.objectContaining({ code: 'not_found' })] });

  const customer = await newCustomer();
  const cases: [Record<string, unknown>, string][] = [
    [{ billingType: 'PIX', value: 10, dueDate: inDays(1) }, 'invalid_customer'],
    [{ customer: customer.id, billingType: 'CHEQUE', value: 10, dueDate: inDays(1) }, 'invalid_billingType'],
    [{ customer: customer.id, billingType: 'PIX', value: 0, dueDate: inDays(1) }, 'invalid_value'],
    [{ customer: customer.id, billingType: 'PIX', value: 10, dueDate: inDays(-2) }, 'invalid_dueDate'],
  ];
  for (const [body, code] of cases) {
    const response = await api('POST', '/payments', body);
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors: { code: string; description: string }[] };
    expect(answer.errors).toEqual([{ code, description: expect.any(String) }]);
  }
});

test('pixQrCode: a real PNG that decodes to a valid static BR Code for the payment', async () => {
  const payment = await newPayment({ value: 66.6 });
  const response = await api('GET', `/payments/${payment.id}/pixQrCode`);
  expect(response.status).toBe(200);
  const { encodedImage, payload, expirationDate } = (await response.json()) as Record<string, string>;
  expect(expirationDate).toBe(`${payment.dueDate} 23:59:59`);

  expect(readQrCode(encodedImage!)).toBe(payload);

  expect(payload!.slice(-8, -4)).toBe('6304');
  expect(payload!.slice(-4)).toBe(crc16CcittFalse(payload!.slice(0, -4)));
  const fields = tlv(payload!);
  expect(fields).toMatchObject({ '00': '01', '01': '12', '52': '0000', '53': '986', '54': '66.60', '58': 'BR' });
  const account = tlv(fields['26']!);
  expect(account['00']).toBe('br.gov.bcb.pix');
  expect(account['01']).toMatch(/\S+/);
  expect(fields['59']).toMatch(/^[A-Z0-9 ]{1,25}$/);
  expect(fields['60']).toMatch(/^[A-Z0-9 ]{1,15}$/);
  expect(tlv(fields['62']!)['05']).toMatch(/^[A-Za-z0-9]{1,25}$/);

  // A single changed character breaks the CRC.
  const tampered = payload!.replace('66.60', '66.61');
  expect(tampered.slice(-4)).not.toBe(crc16CcittFalse(tampered.slice(0, -4)));
});

test('identificationField: 47 digits with valid block and general check digits, due-date factor and amount', async () => {
  const dueDate = inDays(10);
  const payment = await newPayment({ billingType: 'BOLETO', value: 1234.56, dueDate });
  expect(payment.bankSlipUrl).toBe(`${sandbox.url}/b/${payment.id}`);
  const answer = (await (await api('GET', `/payments/${payment.id}/identificationField`)).json()) as Record<
    string,
    string
  >;
  const line = answer.identificationField!;
  expect(line).toMatch(/^\d{47}$/);
  const [b1, d1, b2, d2, b3, d3] = [
    line.slice(0, 9),
    line[9],
    line.slice(10, 20),
    line[20],
    line.slice(21, 31),
    line[31],
  ];
  expect([mod10(b1), mod10(b2), mod10(b3)]).toEqual([Number(d1), Number(d2), Number(d3)]);
  const factor = line.slice(33, 37);
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.parse('2025-02-22T00:00:00Z')) / 86_400_000);
  expect(Number(factor)).toBe(1000 + days);
  expect(line.slice(37)).toBe('0000123456');
  const code = answer.barCode!;
  expect(code).toBe(line.slice(0, 4) + line[32] + line.slice(33) + b1.slice(4) + b2 + b3);
  expect(mod11(code.slice(0, 4) + code.slice(5))).toBe(Number(line[32]));

  expect(dueDateFactor('2025-02-21')).toBe('9999');
  expect(dueDateFactor('2025-02-22')).toBe('1000');
  expect(dueDateFactor('2000-07-03')).toBe('1000');

  const page = await fetch(payment.bankSlipUrl);
  expect(await page.text()).toContain(`${line.slice(0, 5)}.${line.slice(5, 10)}`);
  const pix = await api(
    'GET',
    `/payments/${(await newPayment({ billingType: 'CREDIT_CARD' })).id}/identificationField`,
  );
  expect(pix.status).toBe(400);
});

test('confirm sends PAYMENT_RECEIVED with the token and the full payment, retried until a 200', async () => {
  const payment = await newPayment();
  await settled();
  received = [];
  answers = [500, 503];
  const confirmed = await api('POST', `/sandbox/payment/${payment.id}/confirm`);
  expect(confirmed.status).toBe(200);
  expect(await confirmed.json()).toMatchObject({ id: payment.id, status: 'RECEIVED', paymentDate: expect.any(String) });
  await settled();

  expect(received).toHaveLength(3);
  const ids = new Set(received.map((delivery) => delivery.body.id));
  expect(ids.size).toBe(1);
  const [first] = received;
  expect(first!.headers['asaas-access-token']).toBe('segredo-do-webhook');
  expect(first!.body).toEqual({
    id: expect.stringMatching(/^evt_/),
    event: 'PAYMENT_RECEIVED',
    dateCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    payment: expect.objectContaining({ object: 'payment', id: payment.id, status: 'RECEIVED', value: 155 }),
  });
  const attempts = sandbox.deliveries.filter(
    (delivery) => delivery.paymentId === payment.id && delivery.event === 'PAYMENT_RECEIVED',
  );
  expect(attempts.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
    [1, 500],
    [2, 503],
    [3, 200],
  ]);
  // Paid: it can be neither confirmed again nor deleted.
  expect((await api('POST', `/sandbox/payment/${payment.id}/confirm`)).status).toBe(400);
  const deleted = await api('DELETE', `/payments/${payment.id}`);
  expect(deleted.status).toBe(400);
  expect(await deleted.json()).toEqual({ errors: [expect.objectContaining({ code: 'invalid_action' })] });
});

test('delete only a pending/overdue payment; refund only a paid one', async () => {
  const pending = await newPayment({ billingType: 'BOLETO' });
  expect((await api('POST', `/sandbox/payment/${pending.id}/overdue`)).status).toBe(200);
  const deleted = await api('DELETE', `/payments/${pending.id}`);
  expect(await deleted.json()).toEqual({ deleted: true, id: pending.id });
  expect(await (await api('GET', `/payments/${pending.id}`)).json()).toMatchObject({
    deleted: true,
    status: 'OVERDUE',
  });
  expect((await api('DELETE', `/payments/${pending.id}`)).status).toBe(404);
  const listed = (await (await api('GET', `/payments?externalReference=${pending.externalReference}`)).json()) as {
    data: unknown[];
  };
  expect(listed.data).toEqual([]);

  const paid = await newPayment();
  expect((await api('POST', `/payments/${paid.id}/refund`)).status).toBe(400);
  sandbox.confirm(paid.id);
  const refunded = await api('POST', `/payments/${paid.id}/refund`, {});
  expect(await refunded.json()).toMatchObject({ id: paid.id, status: 'REFUNDED' });
  await settled();
  expect(sandbox.notifications.filter((n) => n.payment.id === paid.id).map((n) => n.event)).toEqual([
    'PAYMENT_CREATED',
    'PAYMENT_RECEIVED',
    'PAYMENT_REFUNDED',
  ]);
  expect(sandbox.notifications.filter((n) => n.payment.id === pending.id).map((n) => n.event)).toEqual([
    'PAYMENT_CREATED',
    'PAYMENT_OVERDUE',
    'PAYMENT_DELETED',
  ]);
});

test('GET answers the stored payment; a chargeback only of a paid payment, through the control endpoint', async () => {
  const pending = await newPayment({ billingType: 'CREDIT_CARD', value: 155 });
  expect((await api('POST', `/sandbox/payment/${pending.id}/chargeback`)).status).toBe(400);
  sandbox.confirm(pending.id);
  const charged = await api('POST', `/sandbox/payment/${pending.id}/chargeback`);
  expect(charged.status).toBe(200);
  expect(await (await api('GET', `/payments/${pending.id}`)).json()).toMatchObject({
    id: pending.id,
    status: 'CHARGEBACK_REQUESTED',
    value: 155,
    externalReference: pending.externalReference,
    deleted: false,
  });
  await settled();
  const sent = sandbox.notifications.filter((n) => n.payment.id === pending.id);
  expect(sent.map((n) => [n.event, n.payment.status])).toEqual([
    ['PAYMENT_CREATED', 'PENDING'],
    ['PAYMENT_CONFIRMED', 'CONFIRMED'],
    ['PAYMENT_CHARGEBACK_REQUESTED', 'CHARGEBACK_REQUESTED'],
  ]);
});

test('a deleted boleto paid at the bank comes back and is received; a deleted PIX charge cannot be paid', async () => {
  const boleto = await newPayment({ billingType: 'BOLETO' });
  await api('DELETE', `/payments/${boleto.id}`);
  expect(sandbox.confirm(boleto.id)).toMatchObject({ deleted: false, status: 'RECEIVED' });
  await settled();
  expect(sandbox.notifications.filter((n) => n.payment.id === boleto.id).map((n) => n.event)).toEqual([
    'PAYMENT_CREATED',
    'PAYMENT_DELETED',
    'PAYMENT_RESTORED',
    'PAYMENT_RECEIVED',
  ]);

  const pix = await newPayment({ billingType: 'PIX' });
  await api('DELETE', `/payments/${pix.id}`);
  expect(() => sandbox.confirm(pix.id)).toThrow(
    'Somente cobranças aguardando pagamento ou vencidas podem ser confirmadas.',
  );
});

test('faults: duplicate deliveries, newest-first order, and 500/429/timeouts on the API', async () => {
  const payment = await newPayment({ billingType: 'BOLETO' });
  await settled();
  received = [];
  const set = await api('POST', '/sandbox/faults', { webhookCopies: 3, reorderNext: 2 });
  expect(await set.json()).toMatchObject({ webhookCopies: 3, reorderNext: 2 });
  sandbox.overdue(payment.id);
  expect(received).toEqual([]);
  sandbox.confirm(payment.id);
  await settled();
  expect(received.map((delivery) => delivery.body.event)).toEqual([
    'PAYMENT_RECEIVED',
    'PAYMENT_RECEIVED',
    'PAYMENT_RECEIVED',
    'PAYMENT_OVERDUE',
    'PAYMENT_OVERDUE',
    'PAYMENT_OVERDUE',
  ]);
  sandbox.faults.webhookCopies = 1;

  sandbox.faults.api.push({ status: 500 }, { match: 'GET', status: 429 });
  expect((await api('GET', `/payments/${payment.id}`)).status).toBe(500);
  expect((await api('GET', `/payments/${payment.id}`)).status).toBe(429);
  expect((await api('GET', `/payments/${payment.id}`)).status).toBe(200);

  const customer = await newCustomer();
  sandbox.faults.api.push({ match: 'POST /payments', timeout: true });
  const body = {
    customer: customer.id,
    billingType: 'PIX',
    value: 10,
    dueDate: inDays(1),
    externalReference: 'pedido-lento',
  };
  const timedOut = await fetch(`${sandbox.apiUrl}/payments`, {
    method: 'POST',
    headers: { access_token: API_KEY },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300),
  }).catch((error: Error) => error.name);
  expect(timedOut).toBe('TimeoutError');
  // The work was done all the same: the payment exists.
  const list = await (await api('GET', '/payments?externalReference=pedido-lento')).json();
  expect(list).toMatchObject({ totalCount: 1, data: [{ customer: customer.id, value: 10 }] });
  expect(sandbox.requests.filter((call) => call.fault).map((call) => [call.method, call.fault])).toEqual([
    ['GET', 500],
    ['GET', 429],
    ['POST', 'timeout'],
  ]);
});

test('the invoice page has a "Pagar" button that confirms the payment and sends the webhook', async () => {
  const payment = await newPayment({ billingType: 'CREDIT_CARD', description: 'Ingresso <Workshop>' });
  await settled();
  received = [];
  const page = await (await fetch(payment.invoiceUrl)).text();
  expect(page).toContain('lang="pt-BR"');
  expect(page).toContain('<button type="submit">Pagar</button>');
  expect(page).toContain('R$\u00a0155,00');
  expect(page).toContain('Ingresso &lt;Workshop&gt;');

  const paid = await fetch(`${payment.invoiceUrl}/pagar`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  await settled();
  expect(received.map((delivery) => [delivery.body.event, delivery.body.payment.status])).toEqual([
    ['PAYMENT_CONFIRMED', 'CONFIRMED'],
  ]);
  const after = await (await fetch(payment.invoiceUrl)).text();
  expect(after).not.toContain('Pagar</button>');
  expect(after).toContain('Pagamento confirmado');
});

test('a held API call does its work and answers only once released', async () => {
  const payment = await newPayment();
  sandbox.faults.api.push({ match: `GET /payments/${payment.id}`, hold: true });
  let answered = false;
  const read = api('GET', `/payments/${payment.id}`).then((response) => {
    answered = true;
    return response;
  });
  await waitFor(() => sandbox.heldCalls === 1);
  expect(answered).toBe(false);
  const released = await api('POST', '/sandbox/release');
  expect(await released.json()).toEqual({ released: 1 });
  expect((await read).status).toBe(200);
  expect(sandbox.heldCalls).toBe(0);
  expect(sandbox.requests.filter((call) => call.fault === 'held')).toHaveLength(1);
});

test('a webhook subscribed to some events is sent only those, as Asaas does', async () => {
  const subscribed = await startSandbox({
    apiKey: API_KEY,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
    webhookEvents: ASAAS_WEBHOOK_EVENTS,
  });
  try {
    const customer = (await (
      await fetch(`${subscribed.apiUrl}/customers`, {
        method: 'POST',
        headers: { access_token: API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'João Ninguém', cpfCnpj: makeCpf() }),
      })
    ).json()) as { id: string };
    const created = await fetch(`${subscribed.apiUrl}/payments`, {
      method: 'POST',
      headers: { access_token: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ customer: customer.id, billingType: 'PIX', value: 155, dueDate: inDays(3) }),
    });
    const payment = (await created.json()) as { id: string };
    subscribed.confirm(payment.id);
    await waitFor(() => subscribed.pendingWebhooks === 0);
    expect(received.map((delivery) => [delivery.body.event, delivery.body.payment.id])).toEqual([
      ['PAYMENT_RECEIVED', payment.id],
    ]);
  } finally {
    await subscribed.close();
  }
});
