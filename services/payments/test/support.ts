import { randomUUID } from 'node:crypto';
import { defineService, type Knex } from '@ticketing/platform';
import {
  captureLogs,
  createTestIssuer,
  dropSchemas,
  makeCpf,
  serviceAuthorization,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
export { makeCpf };
import type { ChargeRequest, EventPayload, EventType } from '@ticketing/proto';
import { startSandbox, type Sandbox, type SandboxOptions } from '@ticketing/asaas-sandbox';
import { paymentsService, type PaymentsConfig } from '../src/index.ts';

export const API_KEY = '$aact_hmlg_test_key';
export const WEBHOOK_TOKEN = 'token-de-webhook-dos-testes';

/** YYYY-MM-DD `days` from today. */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export function chargeRequest(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    method: 'pix',
    amount: '155.00',
    description: 'Workshop de Farmacovigilância – 1 ingresso',
    dueDate: inDays(7),
    customer: {
      userId: randomUUID(),
      name: 'Maria da Conceição',
      cpf: makeCpf(),
      email: 'maria@example.com',
      phone: '(11) 98765-4321',
    },
    ...overrides,
  };
}

/** Stands in for orders: writes events to its outbox on the shared bus. */
const producer = defineService({ name: 'orders_stand_in', identity: 'orders', migrations: [], setup: () => ({}) });

export interface OutboxEvent {
  type: string;
  key: string;
  payload: Record<string, unknown>;
}

export interface Harness {
  sandbox: Sandbox;
  service: TestService<PaymentsConfig>;
  logs: ReturnType<typeof captureLogs>;
  webhookUrl: string;
  /** Bearer tokens of an administrator and of a buyer. */
  adminToken: string;
  userToken: string;
  /** Calls the sandbox's API (its `/v3` paths: `/invoices/inv_1`, `/sandbox/refund-refusal`) as the provider's key. */
  provider(method: string, path: string, body?: unknown): Promise<Response>;
  request(
    method: string,
    path: string,
    /** `/internal` paths are called as orders unless the headers say otherwise. */
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  putCharge(orderId: string, request?: ChargeRequest): Promise<Response>;
  /** Sends a notification the way the provider does, with the right token unless told otherwise. */
  notify(body: unknown, token?: string | null): Promise<Response>;
  chargeRow(orderId: string): Promise<Record<string, any> | undefined>;
  /** The events written to the outbox for an order, oldest first. */
  events(orderId: string): Promise<OutboxEvent[]>;
  webhookRows(paymentId: string): Promise<Record<string, any>[]>;
  /** Provider calls made for a path (after /v3) by method. */
  calls(method: string, path: string): Sandbox['requests'];
  publish<T extends EventType>(type: T, payload: EventPayload<T>): Promise<{ id: string }>;
  /** Waits until the sandbox has no webhook left to deliver. */
  webhooksSettled(): Promise<void>;
  logLines(message: string): Record<string, unknown>[];
  /** A counter's value for the labels given (0 when never counted). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

/** The payments service in-process against real PostgreSQL, Redis and the local sandbox (fast webhook retries). */
export async function startPayments(
  env: Record<string, string> = {},
  sandboxOptions: SandboxOptions = {},
): Promise<Harness> {
  const sandbox = await startSandbox({
    apiKey: API_KEY,
    webhookToken: WEBHOOK_TOKEN,
    webhookRetryScale: 0.001,
    ...sandboxOptions,
  });
  const logs = captureLogs();
  const busSchema = uniqueName('bus');
  const issuer = await createTestIssuer();
  const service = await startTestService(paymentsService, {
    busSchema,
    verifyToken: issuer.verifyToken,
    logStream: logs.stream,
    env: {
      LOG_LEVEL: 'info',
      ASAAS_BASE_URL: sandbox.apiUrl,
      ASAAS_API_KEY: API_KEY,
      ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      ASAAS_TIMEOUT_MS: '1000',
      ASAAS_RETRY_DELAY_MS: '10',
      ...env,
    },
  });
  const source = await startTestService(producer, { busSchema });
  const webhookUrl = `${service.url}/api/payments/webhook`;
  sandbox.webhook.url = webhookUrl;

  const request: Harness['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (path.startsWith('/internal/') && !('authorization' in headers))
      headers.authorization = await serviceAuthorization('orders', 'payments');
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(service.url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  };

  return {
    sandbox,
    service,
    logs,
    webhookUrl,
    adminToken: await issuer.sign({ isAdmin: true, name: 'Admin' }),
    userToken: await issuer.sign({ name: 'Comprador' }),
    provider: (method, path, body) =>
      fetch(sandbox.apiUrl + path, {
        method,
        headers: { access_token: API_KEY, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    request,
    putCharge: (orderId, body = chargeRequest()) => request('PUT', `/internal/charges/${orderId}`, { body }),
    notify: (body, token = WEBHOOK_TOKEN) =>
      request('POST', '/api/payments/webhook', {
        body,
        headers: token === null ? {} : { 'asaas-access-token': token },
      }),
    chargeRow: (orderId) => service.db('charges').where({ order_id: orderId }).first(),
    async events(orderId) {
      const rows = await service.db('outbox').where({ key: orderId }).orderBy('seq');
      return rows.map((row: { topic: string; key: string; envelope: { payload: Record<string, unknown> } }) => ({
        type: row.topic,
        key: row.key,
        payload: row.envelope.payload,
      }));
    },
    webhookRows: (paymentId) => service.db('webhook_events').where({ payment_id: paymentId }).orderBy('received_at'),
    calls: (method, path) => sandbox.requests.filter((call) => call.method === method && call.path === path),
    publish: (type, payload) =>
      source.db.transaction((trx: Knex.Transaction) =>
        source.outbox.add(trx, type, (payload as { orderId: string }).orderId, payload as never),
      ),
    async webhooksSettled() {
      await waitFor(() => sandbox.pendingWebhooks === 0);
    },
    logLines: (message) => logs.lines.filter((line) => line.msg === message),
    async metric(name, labels = {}) {
      const metric = await service.metrics.registry.getSingleMetric(name)?.get();
      const value = metric?.values.find((entry) =>
        Object.entries(labels).every(([key, expected]) => entry.labels[key] === expected),
      );
      return value?.value ?? 0;
    },
    async stop() {
      await sandbox.close();
      await service.stop();
      await source.stop();
      await dropSchemas([busSchema]);
    },
  };
}

export { waitFor };
