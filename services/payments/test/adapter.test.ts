import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { AppError, createLogger } from '@ticketing/platform';
import { captureLogs, waitFor } from '@ticketing/testkit';
import { paymentsMessages } from '@ticketing/proto';
import { startSandbox, type Sandbox } from '@ticketing/asaas-sandbox';
import { createAsaas, type Asaas, type ProviderChargeRequest } from '../src/index.ts';
import { API_KEY, chargeRequest, makeCpf } from './support.ts';

let sandbox: Sandbox;
let logs: ReturnType<typeof captureLogs>;
let asaas: Asaas;

const adapter = (baseUrl: string, apiKey = API_KEY) =>
  createAsaas({
    baseUrl,
    apiKey,
    timeoutMs: 1000,
    maxAttempts: 3,
    retryDelayMs: 5,
    concurrentCharges: 2,
    logger: createLogger('payments', 'info', logs.stream),
  });

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY });
  logs = captureLogs();
  asaas = adapter(sandbox.apiUrl);
});
afterAll(() => sandbox.close());

const request = (overrides: Partial<ProviderChargeRequest> = {}): ProviderChargeRequest => ({
  orderId: randomUUID(),
  ...chargeRequest(),
  ...overrides,
});
const calls = (method: string, path: string) =>
  sandbox.requests.filter((call) => call.method === method && call.path === path);
const paymentsOf = (orderId: string) => [...sandbox.payments.values()].filter((p) => p.externalReference === orderId);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

test('a PIX charge: customer and payment in the real shapes, then the QR code', async () => {
  const charge = request();
  const before = sandbox.requests.length;
  const result = await asaas.createCharge(charge);

  expect(result.payment).toMatchObject({
    status: 'PENDING',
    billingType: 'PIX',
    value: 155,
    externalReference: charge.orderId,
  });
  expect(result.pixPayload).toMatch(/^000201.*6304[0-9A-F]{4}$/);
  expect(Buffer.from(result.pixQrCode!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  expect(result.boletoUrl).toBeNull();
  const made = sandbox.requests.slice(before);
  expect(made.map((call) => `${call.method} ${call.path}`)).toEqual([
    'GET /customers',
    'POST /customers',
    'GET /payments',
    'POST /payments',
    `GET /payments/${result.payment.id}/pixQrCode`,
  ]);
  expect(made[0]!.query).toMatchObject({ cpfCnpj: charge.customer.cpf!.replace(/\D/g, '') });
  expect(made[1]!.body).toEqual({
    name: charge.customer.name,
    cpfCnpj: charge.customer.cpf!.replace(/\D/g, ''),
    email: charge.customer.email,
    mobilePhone: '11987654321',
    externalReference: charge.customer.userId,
    notificationDisabled: true,
  });
  expect(made[2]!.query).toMatchObject({ externalReference: charge.orderId });
  expect(made[3]!.body).toEqual({
    customer: result.customerId,
    billingType: 'PIX',
    value: 155,
    dueDate: charge.dueDate,
    description: charge.description,
    externalReference: charge.orderId,
  });
});

test('boleto gives the slip URL and line; card gives the invoice URL', async () => {
  const boleto = await asaas.createCharge(request({ method: 'boleto', amount: '1234.56' }));
  expect(boleto.payment.value).toBe(1234.56);
  expect(boleto.boletoUrl).toBe(boleto.payment.bankSlipUrl);
  expect(boleto.boletoLine).toMatch(/^\d{47}$/);
  expect(boleto.boletoLine!.slice(-10)).toBe('0000123456');
  expect(boleto.pixQrCode).toBeNull();

  const card = await asaas.createCharge(request({ method: 'credit_card' }));
  expect(card.payment.billingType).toBe('CREDIT_CARD');
  expect(card.invoiceUrl).toBe(`${sandbox.url}/i/${card.payment.id}`);
  expect(card.boletoUrl).toBeNull();
  expect(card.pixPayload).toBeNull();
  expect(calls('GET', `/payments/${card.payment.id}/pixQrCode`)).toEqual([]);
});

test('a customer with the same CPF is reused, not created twice', async () => {
  const first = request();
  const second = request({ customer: { ...first.customer } });
  const created = calls('POST', '/customers').length;
  const a = await asaas.createCharge(first);
  const b = await asaas.createCharge(second);
  expect(b.customerId).toBe(a.customerId);
  expect(calls('POST', '/customers').length).toBe(created + 1);
  const cpf = first.customer.cpf!.replace(/\D/g, '');
  expect([...sandbox.customers.values()].filter((customer) => customer.cpfCnpj === cpf)).toHaveLength(1);
});

test('the order payment is reused: a create that timed out is found by externalReference, never duplicated', async () => {
  const charge = request();
  sandbox.faults.api.push({ match: 'POST /payments', timeout: true });
  const posts = calls('POST', '/payments').length;
  const result = await asaas.createCharge(charge);

  expect(paymentsOf(charge.orderId)).toHaveLength(1);
  expect(result.payment.id).toBe(paymentsOf(charge.orderId)[0]!.id);
  expect(calls('POST', '/payments').length).toBe(posts + 1);
  expect(calls('POST', '/payments').at(-1)!.fault).toBe('timeout');
  expect(logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'provider payment reused', orderId: charge.orderId, paymentId: result.payment.id }),
  );
  // Asking again for the same order answers the same payment.
  expect((await asaas.createCharge(charge)).payment.id).toBe(result.payment.id);
  expect(paymentsOf(charge.orderId)).toHaveLength(1);
});

test("a first attempt creates the order's payment without looking for one; a create that timed out is still found", async () => {
  const charge = request({ firstAttempt: true });
  const before = sandbox.requests.length;
  const result = await asaas.createCharge(charge);
  expect(sandbox.requests.slice(before).map((call) => `${call.method} ${call.path}`)).toEqual([
    'GET /customers',
    'POST /customers',
    'POST /payments',
    `GET /payments/${result.payment.id}/pixQrCode`,
  ]);

  const timedOut = request({ firstAttempt: true });
  sandbox.faults.api.push({ match: 'POST /payments', timeout: true });
  const reused = await asaas.createCharge(timedOut);
  expect(paymentsOf(timedOut.orderId)).toEqual([expect.objectContaining({ id: reused.payment.id })]);
  expect(logs.lines).toContainEqual(
    expect.objectContaining({
      msg: 'provider payment reused',
      orderId: timedOut.orderId,
      paymentId: reused.payment.id,
    }),
  );
});

test('charges beyond the limit wait their turn: the third starts once one of the first two is done', async () => {
  const charges = [request(), request(), request()];
  sandbox.faults.api.push({ match: 'GET /customers', hold: true }, { match: 'GET /customers', hold: true });
  const before = sandbox.requests.length;
  const made = charges.map((charge) => asaas.createCharge(charge));
  await waitFor(() => sandbox.heldCalls === 2);
  const third = charges[2]!.customer.cpf!.replace(/\D/g, '');
  const asked = () => sandbox.requests.slice(before).filter((call) => call.query.cpfCnpj === third);
  expect(asked()).toEqual([]);

  sandbox.release();
  const [first, second] = await Promise.all(made);
  const order = sandbox.requests.slice(before);
  const firstDone = Math.min(
    ...[first!, second!].map((done) =>
      order.findIndex((call) => call.path === `/payments/${done.payment.id}/pixQrCode`),
    ),
  );
  expect(order.indexOf(asked()[0]!)).toBeGreaterThan(firstDone);
});

test('500 and 429 are retried with back-off; too many failures are a 503', async () => {
  const charge = request();
  sandbox.faults.api.push({ match: 'GET /customers', status: 500 }, { match: 'POST /payments', status: 429 });
  const result = await asaas.createCharge(charge);
  expect(paymentsOf(charge.orderId).map((payment) => payment.id)).toEqual([result.payment.id]);
  expect(
    sandbox.requests
      .filter((call) => call.fault)
      .slice(-2)
      .map((call) => [call.method, call.path, call.fault]),
  ).toEqual([
    ['GET', '/customers', 500],
    ['POST', '/payments', 429],
  ]);
  expect(logs.lines.filter((line) => line.msg === 'provider call failed, retrying').length).toBeGreaterThanOrEqual(2);

  sandbox.faults.api.push({ status: 500 }, { status: 502 }, { status: 503 });
  const error = await failure(asaas.getPayment(result.payment.id));
  expect(error.status).toBe(503);
  expect(error.message).toBe(paymentsMessages.providerUnavailable);
  expect(sandbox.faults.api).toEqual([]);
  expect(logs.lines).toContainEqual(expect.objectContaining({ msg: 'payment provider unavailable', attempts: 3 }));
});

test('a provider 400 is a 422 with the provider description; nothing is retried', async () => {
  const invalidCpf = request();
  invalidCpf.customer.cpf = '123.456.789-00';
  const refused = await failure(asaas.createCharge(invalidCpf));
  expect(refused.status).toBe(422);
  expect(refused.message).toBe(`${paymentsMessages.providerRefused}: O CPF/CNPJ informado é inválido.`);
  expect(
    calls('POST', '/customers').filter((call) => (call.body as { cpfCnpj: string }).cpfCnpj === '12345678900'),
  ).toHaveLength(1);

  const zero = request({ amount: '0.00' });
  const error = await failure(asaas.createCharge(zero));
  expect(error.status).toBe(422);
  expect(error.message).toBe(`${paymentsMessages.providerRefused}: O valor da cobrança deve ser maior que zero.`);
  expect(paymentsOf(zero.orderId)).toEqual([]);
});

test('an unreachable provider or a rejected key is a 503', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  const down = await failure(adapter(`http://127.0.0.1:${port}/v3`).createCharge(request()));
  expect(down.status).toBe(503);
  expect(down.message).toBe(paymentsMessages.providerUnavailable);

  const wrongKey = await failure(adapter(sandbox.apiUrl, 'chave-errada').getPayment('pay_x'));
  expect(wrongKey.status).toBe(503);
  expect(logs.lines).toContainEqual(
    expect.objectContaining({ msg: 'payment provider refused the API key', status: 401 }),
  );
  expect(JSON.stringify(logs.lines)).not.toContain(API_KEY);
});

test('getPayment, deletePayment and refundPayment', async () => {
  expect(await asaas.getPayment('pay_inexistente')).toBeNull();
  const pending = await asaas.createCharge(request());
  await asaas.deletePayment(pending.payment.id);
  expect(await asaas.getPayment(pending.payment.id)).toMatchObject({ deleted: true, status: 'PENDING' });
  await asaas.deletePayment(pending.payment.id); // already gone: nothing to do
  expect(calls('DELETE', `/payments/${pending.payment.id}`)).toHaveLength(2);

  const paid = await asaas.createCharge(request());
  const notPaid = await failure(asaas.refundPayment({ paymentId: paid.payment.id, installmentId: null }));
  expect(notPaid.status).toBe(422);
  sandbox.confirm(paid.payment.id);
  // The refund's answer is lost: the adapter reads the payment before asking again.
  sandbox.faults.api.push({ match: `POST /payments/${paid.payment.id}/refund`, timeout: true });
  const refunded = await asaas.refundPayment({ paymentId: paid.payment.id, installmentId: null });
  expect(refunded).toMatchObject({ id: paid.payment.id, status: 'REFUNDED' });
  expect(calls('POST', `/payments/${paid.payment.id}/refund`)).toHaveLength(2);
  expect(sandbox.payments.get(paid.payment.id)!.refunds).toHaveLength(1);
});

test('two refunds of one payment at once: the one the provider refuses finds it refunded and answers it', async () => {
  const paid = await asaas.createCharge(request());
  sandbox.confirm(paid.payment.id);
  // Both read the payment while it is still paid, then both ask for the refund.
  const read = { match: `GET /payments/${paid.payment.id}`, hold: true };
  sandbox.faults.api.push({ ...read }, { ...read });
  const both = Promise.all([
    asaas.refundPayment({ paymentId: paid.payment.id, installmentId: null }),
    asaas.refundPayment({ paymentId: paid.payment.id, installmentId: null }),
  ]);
  await waitFor(() => sandbox.heldCalls === 2);
  sandbox.release();

  for (const answer of await both) expect(answer).toMatchObject({ id: paid.payment.id, status: 'REFUNDED' });
  expect(calls('POST', `/payments/${paid.payment.id}/refund`)).toHaveLength(2);
  expect(sandbox.payments.get(paid.payment.id)!.refunds).toHaveLength(1);
});

test('a buyer whose CPF changed is charged as a customer in the new CPF, the old one left as it was', async () => {
  const first = request();
  const before = await asaas.createCharge(first);
  const cpf = makeCpf();
  const after = await asaas.createCharge(request({ customer: { ...first.customer, cpf } }));
  expect(after.customerId).not.toBe(before.customerId);
  expect(sandbox.customers.get(after.customerId)).toMatchObject({ cpfCnpj: cpf.replace(/\D/g, '') });
  expect(sandbox.customers.get(before.customerId)).toMatchObject({
    cpfCnpj: first.customer.cpf!.replace(/\D/g, ''),
  });
});
