import { randomInt } from 'node:crypto';
import type { DestinationStream } from 'pino';
import type { ZodRawShape } from 'zod';
import { loadConfig, type ServiceDefinition } from '@ticketing/platform';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  dropSchemas,
  makeCpf,
  readQrCode,
  startTestService,
  testKeyRing,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
import { SERVICES, urlSetting, type Role, type ServiceName } from '@ticketing/proto';
import { createGateway, gatewayConfigSchema } from '@ticketing/gateway';
import { identityService } from '@ticketing/identity';
import { mailService } from '@ticketing/mail';
import { catalogService } from '@ticketing/catalog';
import { courtesyService } from '@ticketing/courtesy';
import { certificatesService } from '@ticketing/certificates';
import { ordersService } from '@ticketing/orders';
import { paymentsService } from '@ticketing/payments';
import { ticketsVerifierService, ticketsWorkerService } from '@ticketing/tickets';
import { startSandbox } from '@ticketing/asaas-sandbox';
import { startMailCatcher, type CaughtMessage } from '../mail-catcher.ts';

export const PUBLIC_URL = 'http://localhost:8080';

export const WEBHOOK_TOKEN = 'token-de-webhook-do-teste';

/**
 * A request sent as a browser sends it: when the connection is reset before any answer (a kept connection the
 * server had just let go), the browser sends the request again on a new one; fetch does not, so this does.
 */
async function browserFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
}

/**
 * The product as `npm start` runs it — every service, the gateway, the Asaas sandbox and a real SMTP catcher —
 * in one process, sharing one bus and one Redis prefix, in schemas made for this test file. With `mail: false` the
 * mail service is left out: `mailEnv` is what a mail process of its own needs to join the system.
 */
export async function startSystem({
  mail: withMail = true,
  redisUrl = TEST_REDIS_URL,
  gatewayEnv = {},
  identityEnv = {},
  ordersEnv = {},
  env = {},
  logStream,
}: {
  mail?: boolean;
  redisUrl?: string;
  gatewayEnv?: Record<string, string>;
  identityEnv?: Record<string, string>;
  ordersEnv?: Record<string, string>;
  /** Settings of every process (services and gateway), e.g. where traces go. */
  env?: Record<string, string>;
  /** Where every process writes its logs (each line names its `service`); none unless given. */
  logStream?: DestinationStream;
} = {}) {
  const busSchema = uniqueName('bus');
  const redisPrefix = `${uniqueName('sys')}:`;
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, host: '127.0.0.1' });
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    webhookToken: WEBHOOK_TOKEN,
    webhookRetryScale: 0.001,
  });
  const ticketsSchema = uniqueName('tickets');
  const shared = {
    busSchema,
    redisPrefix,
    logStream,
    env: { PUBLIC_URL, DEV_TOOLS: 'true', REDIS_URL: redisUrl, ...env },
  };
  const running: Partial<Record<ServiceName, TestService<unknown>>> = {};
  /**
   * The addresses of the services `name` calls, as the list of services says: every service checks tokens against
   * identity's published keys and session states, as in production, and calls its collaborators.
   */
  const collaborators = (name: ServiceName) =>
    Object.fromEntries(
      SERVICES.filter((callee) => (callee.callers as readonly string[]).includes(name) && running[callee.name]).map(
        (callee) => [urlSetting(callee.name), running[callee.name]!.url],
      ),
    );
  async function start<S extends ZodRawShape>(
    name: ServiceName,
    definition: ServiceDefinition<S>,
    env: Record<string, string> = {},
  ) {
    const service = await startTestService(definition, {
      ...shared,
      env: { ...shared.env, ...collaborators(name), ...env },
    });
    running[name] = service as TestService<unknown>;
    return service;
  }

  const identity = await start('identity', identityService, identityEnv);
  const catalog = await start('catalog', catalogService);
  const courtesy = await start('courtesy', courtesyService, { MASS_SEND_POLL_MS: '200' });
  const certificates = await start('certificates', certificatesService, { AUTO_RELEASE_POLL_MS: '200' });
  // The catcher answers in milliseconds: a short send timeout lets a killed mail process's claims lapse quickly.
  const mailSettings = { SMTP_URL: catcher.smtpUrl, MAIL_POLL_MS: '100', MAIL_SEND_TIMEOUT_MS: '5000' };
  const mail = withMail ? await start('mail', mailService, mailSettings) : undefined;
  const mailSchema = uniqueName('mail');
  const mailEnv = {
    ...shared.env,
    ...collaborators('mail'),
    ...mailSettings,
    ...testKeyRing.settings('mail'),
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: TEST_DATABASE_URL,
    DB_SCHEMA: mailSchema,
    BUS: 'postgres',
    BUS_SCHEMA: busSchema,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
  };
  const payments = await start('payments', paymentsService, {
    ASAAS_BASE_URL: sandbox.apiUrl,
    ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
  });
  const orders = await start('orders', ordersService, ordersEnv);
  await start('tickets-verifier', ticketsVerifierService, { DB_SCHEMA: ticketsSchema });
  await start('tickets-worker', ticketsWorkerService, { DB_SCHEMA: ticketsSchema });
  const gateway = await createGateway(
    loadConfig(gatewayConfigSchema, {
      PORT: '0',
      OPS_PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: redisUrl,
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
      ...Object.fromEntries(Object.entries(running).map(([name, service]) => [urlSetting(name), service.url])),
      ...env,
      ...gatewayEnv,
    }),
    { logStream },
  );
  sandbox.webhook.url = `${gateway.url}/api/payments/webhook`;
  // Stopped in the reverse order of their start: whoever calls a service stops before it.
  const services = Object.values(running).reverse();

  /** A JSON call through the gateway, as the browser makes it. */
  async function call(
    method: string,
    path: string,
    { body, token, headers = {} }: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) {
    const response = await browserFetch(gateway.url + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Waits for the next e-mail to `to` with `subject` to arrive in the SMTP catcher. */
  async function mailTo(to: string, subject: string, after = 0): Promise<CaughtMessage> {
    return waitFor(() =>
      catcher
        .messages()
        .filter((message) => message.to.includes(to) && message.subject === subject)
        .at(after),
    );
  }

  return {
    identity,
    mail,
    mailEnv,
    catalog,
    courtesy,
    certificates,
    gatewayUrl: gateway.url,
    orders,
    payments,
    /** The tickets service's schema, for reading what the door recorded. */
    ticketsSchema,
    /** The PostgreSQL bus every service of the system shares. */
    busSchema,
    sandbox,
    call,
    mailTo,
    catcher,
    async stop() {
      await gateway.close();
      for (const service of services) await service.stop();
      await dropSchemas([ticketsSchema, mailSchema, busSchema]);
      await Promise.all([catcher.close(), sandbox.close()]);
    },
  };
}

/** A registered buyer whose e-mail was verified with the code that arrived by e-mail. */
export async function verifiedBuyer(system: Awaited<ReturnType<typeof startSystem>>) {
  const person = {
    name: 'Beatriz Campos Rocha',
    cpf: makeCpf(),
    birthDate: '21/07/1991',
    email: `beatriz.${randomInt(1e9)}@example.com.br`,
    phone: '(11) 98888-7777',
    address: 'Rua Haddock Lobo, 595 — Cerqueira César, São Paulo — SP',
    password: 'compra-segura-1',
  };
  await system.call('POST', '/api/auth/register', { body: person });
  const codeMail = await system.mailTo(person.email, 'Seu código de verificação');
  const code = /\b(\d{6})\b/.exec(codeMail.text ?? '')![1];
  const verified = await system.call('POST', '/api/auth/verify-code', { body: { email: person.email, code } });
  return { ...person, token: verified.body.token as string };
}

/** Waits until the door refuses the ticket as cancelled (its news travels on the bus); answers the door's body. */
export async function doorRefusesAsCancelled(
  system: System,
  adminToken: string,
  qrCodeData: string | undefined,
): Promise<{ success: boolean; code: string; message: string }> {
  return waitFor(async () => {
    const { body } = await system.call('POST', '/api/verify-ticket', { token: adminToken, body: { qrCodeData } });
    return body.code === 'cancelled' && body;
  });
}

/**
 * A verified account given `roles` by the administrator, signed in again so its token carries them; door staff
 * are also added to the staff of each of `doorEvents` (keeping whoever works there already), and returned once the
 * door (tickets and catalog) knows it.
 */
export async function staffMember(
  system: System,
  adminToken: string,
  roles: Role[],
  { doorEvents = [] }: { doorEvents?: string[] } = {},
) {
  const person = await verifiedBuyer(system);
  const grant = await system.call('PUT', '/api/admin/users/roles', {
    token: adminToken,
    body: { email: person.email, roles },
  });
  if (grant.status !== 200) throw new Error(`roles not granted: ${JSON.stringify(grant.body)}`);
  for (const eventId of doorEvents) await assignDoor(system, adminToken, eventId, person.email);
  const login = await system.call('POST', '/api/auth/login', {
    body: { email: person.email, password: person.password },
  });
  const token = login.body.token as string;
  for (const eventId of doorEvents) await doorKnows(system, { token, adminToken }, eventId);
  return { ...person, token };
}

/** Adds `email` to the staff of the event's door, as the back office's 'Equipe de portaria' does. */
export async function assignDoor(system: System, adminToken: string, eventId: string, email: string) {
  const query = `/api/admin/users/door-staff?${new URLSearchParams({ eventId })}`;
  const current = await system.call('GET', query, { token: adminToken });
  if (current.status !== 200) throw new Error(`door staff not read: ${JSON.stringify(current.body)}`);
  const emails = (current.body.staff as { email: string }[]).map((person) => person.email);
  const saved = await system.call('PUT', '/api/admin/users/door-staff', {
    token: adminToken,
    body: { eventId, emails: [...new Set([...emails, email])] },
  });
  if (saved.status !== 200) throw new Error(`door staff not assigned: ${JSON.stringify(saved.body)}`);
}

/**
 * Waits until the event's door opens to the staffer's `token`: tickets lets them in, and catalog lists the event
 * for them when it lists it for the administrator (today's or upcoming).
 */
export async function doorKnows(
  system: System,
  { token, adminToken }: { token: string; adminToken: string },
  eventId: string,
) {
  await waitFor(async () => (await system.call('GET', `/api/door/events/${eventId}/counts`, { token })).status === 200);
  const everything = await system.call('GET', '/api/door/events', { token: adminToken });
  if (!(everything.body as { id: string }[]).some((event) => event.id === eventId)) return;
  await waitFor(async () =>
    ((await system.call('GET', '/api/door/events', { token })).body as { id: string }[]).some(
      (event) => event.id === eventId,
    ),
  );
}

/** An event created by the administrator through the API; its id, and the admin's token. */
export async function adminEvent(system: Awaited<ReturnType<typeof startSystem>>, fields: Record<string, unknown>) {
  const admin = await system.call('POST', '/api/auth/login', {
    body: { email: 'admin@educacaofarma.com.br', password: 'admin123' },
  });
  const created = await system.call('POST', '/api/events', {
    token: admin.body.token,
    body: {
      title: 'Workshop de Farmácia Clínica',
      description: 'Casos práticos de acompanhamento farmacoterapêutico.',
      date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      location: 'Belo Horizonte — MG',
      price: '150.00',
      ...fields,
    },
  });
  if (created.status !== 201) throw new Error(`event not created: ${JSON.stringify(created.body)}`);
  return { eventId: created.body.id as string, adminToken: admin.body.token as string };
}

type System = Awaited<ReturnType<typeof startSystem>>;
type Buyer = Awaited<ReturnType<typeof verifiedBuyer>>;

/** Turns notas fiscais on, as an administrator fills in the fiscal settings: every paid order then gets one. */
export async function issueNotasFiscais(system: System, adminToken: string) {
  const settings = await system.call('PUT', '/api/payments/fiscal-settings', {
    token: adminToken,
    body: {
      enabled: true,
      serviceDescription: 'Curso de capacitação profissional para a indústria farmacêutica',
      municipalServiceCode: '08.02',
      municipalServiceName: 'Instrução, treinamento, orientação pedagógica',
      issRate: 2,
      deductions: '0.00',
      retainIss: false,
    },
  });
  if (settings.status !== 200) throw new Error(`fiscal settings not saved: ${JSON.stringify(settings.body)}`);
}

/** One of the buyer's orders as the profile lists it. */
export async function orderOf(system: System, buyer: Buyer, orderId: string) {
  const { body } = await system.call('GET', '/api/orders?page=1', { token: buyer.token });
  return body.orders.find((order: { id: string }) => order.id === orderId);
}

/**
 * A ticket bought with PIX and paid in the sandbox: its order, its provider charge, its QR code as the order shows it
 * (a PNG data URL) and the text in it.
 */
export async function paidTicket(system: System, buyer: Buyer, eventId: string) {
  const bought = await system.call('POST', '/api/orders', {
    token: buyer.token,
    body: { eventId, paymentMethod: 'pix' },
  });
  if (bought.status !== 201) throw new Error(`order not created: ${JSON.stringify(bought.body)}`);
  const { id: orderId, asaasPaymentId } = bought.body.order;
  system.sandbox.confirm(asaasPaymentId);
  const paid = await waitFor(async () => {
    const order = await orderOf(system, buyer, orderId);
    return order?.status === 'paid' && order.qrCodeData ? order : undefined;
  });
  // The order shows the QR code as an image; the door reads the text in it.
  const png = Buffer.from((paid.qrCodeData as string).split(',')[1]!, 'base64');
  return {
    orderId: orderId as string,
    asaasPaymentId: asaasPaymentId as string,
    qrCodeData: paid.qrCodeData as string,
    qrText: readQrCode(png),
  };
}

/** The courtesy redemption form as `guest` fills it in with `code`, the ticket going to `email`. */
export function redemptionForm(guest: Buyer, code: string, email: string) {
  return {
    name: guest.name,
    email,
    emailConfirm: email,
    cpf: guest.cpf,
    partnerCompany: 'Laboratório Parceiro S.A.',
    occupation: 'Farmacêutica responsável',
    birthDate: '1991-07-21',
    address: guest.address,
    phone: guest.phone,
    code,
  };
}
