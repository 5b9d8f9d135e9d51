/**
 * A local stand-in for the Asaas API v3: the subset the payments service uses, kept in memory, with the same
 * shapes, errors and webhooks (header `asaas-access-token`, retried with the provider's growing gaps until a
 * 200). Tests drive it directly (`confirm`, `overdue`, `chargeback`, `faults`, `release`); people drive it through
 * its HTML pages or `POST /v3/sandbox/payment/:id/confirm|overdue|chargeback`, as on Asaas's own sandbox.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { qrCodePng } from '@ticketing/platform';
import { barCode, identificationField } from './boleto.ts';
import { buildBrCode } from './brcode.ts';
import { boletoPage, invoicePage } from './pages.ts';

export type BillingType = 'PIX' | 'BOLETO' | 'CREDIT_CARD' | 'UNDEFINED';

export interface SandboxCustomer {
  object: 'customer';
  id: string;
  dateCreated: string;
  name: string;
  email: string | null;
  phone: string | null;
  mobilePhone: string | null;
  cpfCnpj: string;
  personType: 'FISICA' | 'JURIDICA';
  externalReference: string | null;
  notificationDisabled: boolean;
  deleted: boolean;
}

export interface SandboxPayment {
  object: 'payment';
  id: string;
  dateCreated: string;
  customer: string;
  value: number;
  netValue: number;
  description: string | null;
  billingType: BillingType;
  status: string;
  dueDate: string;
  originalDueDate: string;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  confirmedDate: string | null;
  invoiceUrl: string;
  invoiceNumber: string;
  bankSlipUrl: string | null;
  externalReference: string | null;
  deleted: boolean;
  refunds: { dateCreated: string; status: string; value: number }[] | null;
}

export interface Notification {
  id: string;
  event: string;
  dateCreated: string;
  payment: SandboxPayment;
}

/** A failure the API gives instead of its answer, for the next call that matches. */
export interface ApiFault {
  /** "METHOD /path" (path after /v3, without the query) or just "METHOD"; absent: any call. */
  match?: string;
  /** Answer with this status (500, 429, 503…) without doing anything. */
  status?: number;
  /** Do the work, then never answer (the caller times out). */
  timeout?: boolean;
  /** Wait until released (`release()` or `POST /v3/sandbox/release`), then do the work and answer. */
  hold?: boolean;
}

export interface SandboxFaults {
  /** Each webhook is delivered this many times, all at once (at least once). */
  webhookCopies: number;
  /** The next N webhooks are held back, then delivered newest first, one after the other. */
  reorderNext: number;
  /** Wait before every delivery attempt series. */
  webhookDelayMs: number;
  /** Consumed in order by the next matching API calls. */
  api: ApiFault[];
}

export interface RecordedRequest {
  method: string;
  /** After /v3, without the query. */
  path: string;
  query: Record<string, string>;
  body: unknown;
  fault?: number | 'timeout' | 'held';
}

export interface DeliveryRecord {
  eventId: string;
  event: string;
  paymentId: string;
  copy: number;
  attempt: number;
  status: number | 'error';
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** The only key accepted; any non-empty key when absent. */
  apiKey?: string;
  webhookUrl?: string;
  webhookToken?: string;
  /** The events the webhook is subscribed to (Asaas's webhook `events`); every event when absent. */
  webhookEvents?: ReadonlySet<string>;
  /** Multiplies the provider's retry gaps (30 s, 1 min, 3.5 min…): 0.001 turns them into milliseconds. */
  webhookRetryScale?: number;
  /** Consecutive failures after which a delivery is given up (Asaas pauses the queue after 15). */
  webhookMaxAttempts?: number;
  webhookTimeoutMs?: number;
  pixKey?: string;
  merchantName?: string;
  merchantCity?: string;
  bankCode?: string;
  /** Where the HTML pages are reached from outside; the listening address by default. */
  publicUrl?: string;
}

export interface Sandbox {
  /** Root of the sandbox (pages live here); the API is at `apiUrl`. */
  url: string;
  apiUrl: string;
  faults: SandboxFaults;
  webhook: { url?: string; token?: string };
  requests: RecordedRequest[];
  notifications: Notification[];
  deliveries: DeliveryRecord[];
  customers: Map<string, SandboxCustomer>;
  payments: Map<string, SandboxPayment>;
  readonly pendingWebhooks: number;
  /** API calls waiting for `release()` (faults with `hold`). */
  readonly heldCalls: number;
  /** Lets every held API call go on. */
  release(): void;
  /** Marks the payment paid (CONFIRMED for cards, RECEIVED otherwise) and sends the webhook. */
  confirm(paymentId: string): SandboxPayment;
  overdue(paymentId: string): SandboxPayment;
  /** The card holder disputes a paid payment: CHARGEBACK_REQUESTED and its webhook. */
  chargeback(paymentId: string): SandboxPayment;
  close(): Promise<void>;
}

/** Asaas's gaps between webhook attempts, in seconds; hourly after the list ends. */
const RETRY_GAPS_S = [30, 60, 210, 300, 900, 1500, 3600, 3600, 3600, 3600, 3600, 10800, 10800, 10800];
const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
const BILLING_TYPES = new Set<string>(['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED']);

class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, description: string) {
    super(description);
    this.status = status;
    this.code = code;
  }
}

const invalid = (code: string, description: string) => new ApiError(400, code, description);
const notFound = () => new ApiError(404, 'not_found', 'O recurso solicitado não foi encontrado.');

/** "YYYY-MM-DD HH:mm:ss" in Brasília time (UTC−3). */
export function brasiliaNow(now = Date.now()): string {
  return new Date(now - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

const digitsOnly = (value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '') : '');

function validCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(cpf[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10]);
}

function validCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const digit = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((total, weight, i) => total + weight * Number(cnpj[i]), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return digit(12) === Number(cnpj[12]) && digit(13) === Number(cnpj[13]);
}

const isDate = (value: unknown): value is string =>
  typeof value === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

function listOf<T>(items: T[], query: Record<string, string>) {
  const offset = Math.max(0, Number(query.offset ?? 0) || 0);
  const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10) || 10));
  const data = items.slice(offset, offset + limit);
  return {
    object: 'list',
    hasMore: offset + data.length < items.length,
    totalCount: items.length,
    limit,
    offset,
    data,
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const scale = options.webhookRetryScale ?? 1;
  const maxAttempts = options.webhookMaxAttempts ?? 15;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
  const pixKey = options.pixKey ?? '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
  const merchantName = options.merchantName ?? 'Educacao Farma';
  const merchantCity = options.merchantCity ?? 'Sao Paulo';
  const bankCode = options.bankCode ?? '461';

  const customers = new Map<string, SandboxCustomer>();
  // Customers by CPF/CNPJ and by external reference, the look-ups made before every charge: found without a scan.
  const customersBy = {
    cpfCnpj: new Map<string, SandboxCustomer[]>(),
    externalReference: new Map<string, SandboxCustomer[]>(),
  };
  const payments = new Map<string, SandboxPayment>();
  const slips = new Map<string, { nossoNumero: string; barCode: string; identificationField: string }>();
  const faults: SandboxFaults = { webhookCopies: 1, reorderNext: 0, webhookDelayMs: 0, api: [] };
  const webhook = { url: options.webhookUrl, token: options.webhookToken };
  const requests: RecordedRequest[] = [];
  const notifications: Notification[] = [];
  const deliveries: DeliveryRecord[] = [];
  const closing = new AbortController();
  const sockets = new Set<Socket>();
  let held: Notification[] = [];
  let heldCalls: (() => void)[] = [];
  let pending = 0;
  let sequence = 0;
  let publicUrl = options.publicUrl ?? '';

  // Webhooks ------------------------------------------------------------------------------------------------

  async function deliverOne(notification: Notification, copy: number): Promise<void> {
    if (faults.webhookDelayMs > 0) await sleep(faults.webhookDelayMs, undefined, { signal: closing.signal });
    const body = JSON.stringify(notification);
    for (let attempt = 1; attempt <= maxAttempts && !closing.signal.aborted; attempt++) {
      let status: number | 'error' = 'error';
      if (webhook.url) {
        try {
          // undici's own request: fetch's streams and Response objects cost more than the delivery itself.
          const response = await request(webhook.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'user-agent': 'Asaas_Sandbox/3.0',
              ...(webhook.token ? { 'asaas-access-token': webhook.token } : {}),
            },
            body,
            signal: AbortSignal.any([closing.signal, AbortSignal.timeout(webhookTimeoutMs)]),
          });
          status = response.statusCode;
          await response.body.dump();
        } catch {
          status = 'error';
        }
      }
      if (closing.signal.aborted) return;
      const { id: eventId, event } = notification;
      deliveries.push({ eventId, event, paymentId: notification.payment.id, copy, attempt, status });
      if (status === 200) return;
      const gap = RETRY_GAPS_S[Math.min(attempt - 1, RETRY_GAPS_S.length - 1)]!;
      await sleep(gap * 1000 * scale, undefined, { signal: closing.signal });
    }
  }

  async function deliver(notification: Notification): Promise<void> {
    const copies = Math.max(1, Math.trunc(faults.webhookCopies));
    await Promise.all(Array.from({ length: copies }, (_, i) => deliverOne(notification, i + 1)));
  }

  function track(work: Promise<void>): void {
    pending++;
    work.catch(() => {}).finally(() => pending--);
  }

  function emit(event: string, payment: SandboxPayment): void {
    if (options.webhookEvents && !options.webhookEvents.has(event)) return;
    const notification: Notification = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      event,
      dateCreated: brasiliaNow(),
      payment: structuredClone(payment),
    };
    notifications.push(notification);
    if (!webhook.url) return;
    if (faults.reorderNext > 0) {
      held.push(notification);
      faults.reorderNext--;
      if (faults.reorderNext === 0) {
        const batch = held.reverse();
        held = [];
        track(
          (async () => {
            for (const item of batch) await deliver(item);
          })(),
        );
      }
      return;
    }
    track(deliver(notification));
  }

  // Domain ------------------------------------------------------------------------------------------------------

  function payment(id: string): SandboxPayment {
    const found = payments.get(id);
    if (!found) throw notFound();
    return found;
  }

  function confirm(id: string): SandboxPayment {
    const target = payment(id);
    // A boleto already registered at the bank can still be paid after its charge was deleted: the charge comes back.
    const lateBoleto = target.deleted && target.billingType === 'BOLETO';
    if ((target.deleted && !lateBoleto) || !['PENDING', 'OVERDUE'].includes(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser confirmadas.');
    }
    if (lateBoleto) {
      target.deleted = false;
      emit('PAYMENT_RESTORED', target);
    }
    const today = brasiliaNow().slice(0, 10);
    const card = target.billingType === 'CREDIT_CARD';
    Object.assign(target, {
      status: card ? 'CONFIRMED' : 'RECEIVED',
      paymentDate: today,
      clientPaymentDate: today,
      confirmedDate: today,
    });
    emit(card ? 'PAYMENT_CONFIRMED' : 'PAYMENT_RECEIVED', target);
    return target;
  }

  function overdue(id: string): SandboxPayment {
    const target = payment(id);
    if (target.deleted || target.status !== 'PENDING') {
      throw invalid('invalid_action', 'Somente cobranças aguardando pagamento podem vencer.');
    }
    target.status = 'OVERDUE';
    emit('PAYMENT_OVERDUE', target);
    return target;
  }

  function chargeback(id: string): SandboxPayment {
    const target = payment(id);
    if (target.deleted || !PAID.has(target.status)) {
      throw invalid('invalid_action', 'Somente cobranças recebidas ou confirmadas podem ter chargeback.');
    }
    target.status = 'CHARGEBACK_REQUESTED';
    emit('PAYMENT_CHARGEBACK_REQUESTED', target);
    return target;
  }

  function release(): void {
    const waiting = heldCalls;
    heldCalls = [];
    for (const go of waiting) go();
  }

  function createCustomer(body: Record<string, unknown>): SandboxCustomer {
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw invalid('invalid_name', 'O nome do cliente deve ser informado.');
    const cpfCnpj = digitsOnly(body.cpfCnpj);
    if (!cpfCnpj) throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ do cliente deve ser informado.');
    if (!(validCpf(cpfCnpj) || validCnpj(cpfCnpj)))
      throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    const customer: SandboxCustomer = {
      object: 'customer',
      id: `cus_${String(++sequence).padStart(12, '0')}`,
      dateCreated: brasiliaNow().slice(0, 10),
      name,
      email: text(body.email),
      phone: text(body.phone),
      mobilePhone: text(body.mobilePhone),
      cpfCnpj,
      personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
      externalReference: text(body.externalReference),
      notificationDisabled: body.notificationDisabled === true,
      deleted: false,
    };
    customers.set(customer.id, customer);
    for (const [index, value] of [
      [customersBy.cpfCnpj, customer.cpfCnpj],
      [customersBy.externalReference, customer.externalReference],
    ] as const) {
      if (value !== null) index.set(value, [...(index.get(value) ?? []), customer]);
    }
    return customer;
  }

  /** The customers a search may find: those of its CPF/CNPJ or external reference when it names one, else all. */
  function customerCandidates(query: Record<string, string>): SandboxCustomer[] {
    if (query.cpfCnpj) return customersBy.cpfCnpj.get(digitsOnly(query.cpfCnpj)) ?? [];
    if (query.externalReference) return customersBy.externalReference.get(query.externalReference) ?? [];
    return [...customers.values()];
  }

  function createPayment(body: Record<string, unknown>): SandboxPayment {
    const customer = typeof body.customer === 'string' ? customers.get(body.customer) : undefined;
    if (!customer || customer.deleted) throw invalid('invalid_customer', 'Customer inválido ou não informado.');
    if (typeof body.billingType !== 'string' || !BILLING_TYPES.has(body.billingType)) {
      throw invalid('invalid_billingType', 'Informe uma forma de pagamento válida.');
    }
    if (typeof body.value !== 'number' || !Number.isFinite(body.value) || body.value <= 0) {
      throw invalid('invalid_value', 'O valor da cobrança deve ser maior que zero.');
    }
    if (!isDate(body.dueDate)) throw invalid('invalid_dueDate', 'A data de vencimento informada é inválida.');
    if (body.dueDate < brasiliaNow().slice(0, 10)) {
      throw invalid('invalid_dueDate', 'A data de vencimento não pode ser anterior à data atual.');
    }
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 500)) {
      throw invalid('invalid_description', 'A descrição deve ter no máximo 500 caracteres.');
    }
    const id = `pay_${randomBytes(8).toString('hex')}`;
    const billingType = body.billingType as BillingType;
    const cents = Math.round(body.value * 100);
    const created: SandboxPayment = {
      object: 'payment',
      id,
      dateCreated: brasiliaNow().slice(0, 10),
      customer: customer.id,
      value: cents / 100,
      netValue: Math.max(0, cents - 99) / 100,
      description: (body.description as string | undefined) ?? null,
      billingType,
      status: 'PENDING',
      dueDate: body.dueDate,
      originalDueDate: body.dueDate,
      paymentDate: null,
      clientPaymentDate: null,
      confirmedDate: null,
      invoiceUrl: `${publicUrl}/i/${id}`,
      invoiceNumber: String(sequence + 1000000),
      bankSlipUrl: billingType === 'BOLETO' || billingType === 'UNDEFINED' ? `${publicUrl}/b/${id}` : null,
      externalReference: typeof body.externalReference === 'string' ? body.externalReference : null,
      deleted: false,
      refunds: null,
    };
    sequence++;
    if (created.bankSlipUrl) {
      const nossoNumero = String(sequence).padStart(12, '0');
      const code = barCode({
        bank: bankCode,
        dueDate: created.dueDate,
        amountCents: cents,
        freeField: `0000011234567${nossoNumero}`,
      });
      slips.set(id, { nossoNumero, barCode: code, identificationField: identificationField(code) });
    }
    payments.set(id, created);
    emit('PAYMENT_CREATED', created);
    return created;
  }

  // HTTP --------------------------------------------------------------------------------------------------------

  type Handler = (params: string[], query: Record<string, string>, body: Record<string, unknown>) => unknown;
  const routes: [string, RegExp, Handler][] = [
    ['POST', /^\/customers$/, (_, __, body) => createCustomer(body)],
    [
      'GET',
      /^\/customers$/,
      (_, query) =>
        listOf(
          customerCandidates(query).filter(
            (customer) =>
              !customer.deleted &&
              (!query.cpfCnpj || customer.cpfCnpj === digitsOnly(query.cpfCnpj)) &&
              (!query.externalReference || customer.externalReference === query.externalReference) &&
              (!query.email || customer.email === query.email),
          ),
          query,
        ),
    ],
    [
      'GET',
      /^\/customers\/([^/]+)$/,
      ([id]) => {
        const customer = customers.get(id!);
        if (!customer) throw notFound();
        return customer;
      },
    ],
    ['POST', /^\/payments$/, (_, __, body) => createPayment(body)],
    [
      'GET',
      /^\/payments$/,
      (_, query) =>
        listOf(
          [...payments.values()].filter(
            (item) =>
              !item.deleted &&
              (!query.externalReference || item.externalReference === query.externalReference) &&
              (!query.status || item.status === query.status) &&
              (!query.customer || item.customer === query.customer) &&
              (!query.billingType || item.billingType === query.billingType),
          ),
          query,
        ),
    ],
    ['GET', /^\/payments\/([^/]+)$/, ([id]) => payment(id!)],
    ['GET', /^\/payments\/([^/]+)\/status$/, ([id]) => ({ status: payment(id!).status })],
    [
      'DELETE',
      /^\/payments\/([^/]+)$/,
      ([id]) => {
        const target = payment(id!);
        if (target.deleted) throw notFound();
        if (!['PENDING', 'OVERDUE'].includes(target.status)) {
          throw invalid('invalid_action', 'Somente cobranças aguardando pagamento ou vencidas podem ser removidas.');
        }
        target.deleted = true;
        emit('PAYMENT_DELETED', target);
        return { deleted: true, id: target.id };
      },
    ],
    [
      'POST',
      /^\/payments\/([^/]+)\/refund$/,
      ([id]) => {
        const target = payment(id!);
        if (target.deleted || !PAID.has(target.status)) {
          throw invalid('invalid_action', 'Somente cobranças recebidas ou confirmadas podem ser estornadas.');
        }
        target.status = 'REFUNDED';
        target.refunds = [{ dateCreated: brasiliaNow(), status: 'DONE', value: target.value }];
        emit('PAYMENT_REFUNDED', target);
        return target;
      },
    ],
    [
      'GET',
      /^\/payments\/([^/]+)\/pixQrCode$/,
      ([id]) => {
        const target = payment(id!);
        if (target.billingType === 'CREDIT_CARD') {
          throw invalid('invalid_billingType', 'Esta cobrança não aceita pagamento por Pix.');
        }
        const payload = buildBrCode({
          pixKey,
          amountCents: Math.round(target.value * 100),
          merchantName,
          merchantCity,
          txid: target.id.replace('pay_', '').toUpperCase(),
        });
        return {
          // A valid code with a fixed mask: choosing the surest one is the real provider's work, on its machines.
          encodedImage: qrCodePng(payload, { scale: 8, margin: 4, maskPattern: 0 }).toString('base64'),
          payload,
          expirationDate: `${target.dueDate} 23:59:59`,
        };
      },
    ],
    [
      'GET',
      /^\/payments\/([^/]+)\/identificationField$/,
      ([id]) => {
        payment(id!);
        const slip = slips.get(id!);
        if (!slip) throw invalid('invalid_billingType', 'Esta cobrança não é um boleto.');
        return slip;
      },
    ],
    ['POST', /^\/sandbox\/payment\/([^/]+)\/confirm$/, ([id]) => confirm(id!)],
    ['POST', /^\/sandbox\/payment\/([^/]+)\/overdue$/, ([id]) => overdue(id!)],
    ['POST', /^\/sandbox\/payment\/([^/]+)\/chargeback$/, ([id]) => chargeback(id!)],
    [
      'POST',
      /^\/sandbox\/release$/,
      () => {
        const released = heldCalls.length;
        release();
        return { released };
      },
    ],
    ['GET', /^\/sandbox\/faults$/, () => faults],
    [
      'POST',
      /^\/sandbox\/faults$/,
      (_, __, body) => {
        const { webhookCopies, reorderNext, webhookDelayMs, api } = body as Partial<SandboxFaults>;
        if (typeof webhookCopies === 'number') faults.webhookCopies = webhookCopies;
        if (typeof reorderNext === 'number') faults.reorderNext = reorderNext;
        if (typeof webhookDelayMs === 'number') faults.webhookDelayMs = webhookDelayMs;
        if (Array.isArray(api)) faults.api.push(...api);
        return faults;
      },
    ],
  ];

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }

  function sendError(res: ServerResponse, error: ApiError): void {
    send(res, error.status, { errors: [{ code: error.code, description: error.message }] });
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function takeFault(method: string, path: string): ApiFault | undefined {
    const index = faults.api.findIndex(
      (fault) => !fault.match || fault.match === method || fault.match === `${method} ${path}`,
    );
    return index === -1 ? undefined : faults.api.splice(index, 1)[0];
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const path = url.pathname.slice('/v3'.length) || '/';
    const query = Object.fromEntries(url.searchParams);
    const raw = await readBody(req);
    const key = req.headers['access_token'];
    if (typeof key !== 'string' || !key || (options.apiKey !== undefined && key !== options.apiKey)) {
      return sendError(res, new ApiError(401, 'invalid_access_token', 'A chave de API fornecida é inválida.'));
    }
    let body: Record<string, unknown> = {};
    if (raw.trim()) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return sendError(res, invalid('invalid_request', 'O corpo da requisição não é um JSON válido.'));
      }
    }
    const control = path.startsWith('/sandbox/');
    const recorded: RecordedRequest = { method, path, query, body: raw.trim() ? body : undefined };
    if (!control) requests.push(recorded);
    const fault = control ? undefined : takeFault(method, path);
    if (fault?.status) {
      recorded.fault = fault.status;
      return send(res, fault.status, { errors: [{ code: 'fault', description: 'Falha simulada pelo sandbox.' }] });
    }
    if (fault?.hold) {
      recorded.fault = 'held';
      await new Promise<void>((resolve) => heldCalls.push(resolve));
      if (closing.signal.aborted) return;
    }
    const route = routes.find(([verb, pattern]) => verb === method && pattern.test(path));
    if (!route) return sendError(res, notFound());
    try {
      const params = route[1].exec(path)!.slice(1).map(decodeURIComponent);
      const answer = await route[2](params, query, body);
      if (fault?.timeout) {
        recorded.fault = 'timeout';
        return; // the work is done; the answer never comes (the socket closes with the sandbox or the caller)
      }
      send(res, 200, answer);
    } catch (error) {
      if (error instanceof ApiError) return sendError(res, error);
      throw error;
    }
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(text);
    };
    const invoice = /^\/i\/([^/]+)(\/pagar)?$/.exec(url.pathname);
    const slip = /^\/b\/([^/]+)$/.exec(url.pathname);
    const target = payments.get(decodeURIComponent((invoice ?? slip)?.[1] ?? ''));
    if (!target)
      return html(404, '<!doctype html><html lang="pt-BR"><body><h1>Cobrança não encontrada</h1></body></html>');
    if (invoice?.[2] && req.method === 'POST') {
      await readBody(req);
      try {
        confirm(target.id);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
      res.writeHead(303, { location: `/i/${target.id}` });
      return void res.end();
    }
    if (req.method !== 'GET')
      return html(405, '<!doctype html><html lang="pt-BR"><body>Método não permitido</body></html>');
    if (invoice && !invoice[2]) return html(200, invoicePage(target));
    const boleto = slips.get(target.id);
    if (slip && boleto) return html(200, boletoPage(target, boleto.identificationField));
    return html(404, '<!doctype html><html lang="pt-BR"><body><h1>Boleto não encontrado</h1></body></html>');
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const work =
      url.pathname === '/v3' || url.pathname.startsWith('/v3/') ? handleApi(req, res, url) : handlePage(req, res, url);
    work.catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { errors: [{ code: 'internal_error', description: String(error) }] });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  qrCodePng('warm-up'); // loads the QR encoder now rather than in the first API call
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  if (!publicUrl) publicUrl = url;

  return {
    url,
    apiUrl: `${url}/v3`,
    faults,
    webhook,
    requests,
    notifications,
    deliveries,
    customers,
    payments,
    get pendingWebhooks() {
      return pending + held.length;
    },
    get heldCalls() {
      return heldCalls.length;
    },
    release,
    confirm,
    overdue,
    chargeback,
    async close() {
      closing.abort();
      release();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
