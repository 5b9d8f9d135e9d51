import { loadConfig } from '@ticketing/platform';
import {
  TEST_REDIS_URL,
  dropSchemas,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/platform/testing';
import { createGateway, gatewayConfigSchema } from '@ticketing/gateway';
import { identityService } from '@ticketing/identity';
import { mailService } from '@ticketing/mail';
import { catalogService } from '@ticketing/catalog';
import { ordersService } from '@ticketing/orders';
import { paymentsService } from '@ticketing/payments';
import { ticketsVerifierService, ticketsWorkerService } from '@ticketing/tickets';
import { startSandbox } from '../../services/payments/sandbox/server.ts';
import { startMailCatcher, type CaughtMessage } from '../../scripts/mail-catcher.ts';

export const PUBLIC_URL = 'http://localhost:8080';

const WEBHOOK_TOKEN = 'token-de-webhook-do-teste';

/**
 * The product as `npm start` runs it — every service, the gateway, the Asaas sandbox and a real SMTP catcher —
 * in one process, sharing one bus and one Redis prefix, in schemas made for this test file.
 */
export async function startSystem() {
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
  const shared = { busSchema, redisPrefix, env: { PUBLIC_URL, DEV_TOOLS: 'true' } };
  const identity = await startTestService(identityService, shared);
  // Every service checks tokens against the identity service's published keys, as in production.
  const withKeys = { ...shared, env: { ...shared.env, JWKS_URL: `${identity.url}/.well-known/jwks.json` } };
  const catalog = await startTestService(catalogService, withKeys);
  const mail = await startTestService(mailService, {
    ...withKeys,
    env: { ...withKeys.env, SMTP_URL: catcher.smtpUrl, MAIL_POLL_MS: '100' },
  });
  const payments = await startTestService(paymentsService, {
    ...withKeys,
    env: { ...withKeys.env, ASAAS_BASE_URL: sandbox.apiUrl, ASAAS_WEBHOOK_TOKEN: WEBHOOK_TOKEN },
  });
  const orders = await startTestService(ordersService, {
    ...withKeys,
    env: { ...withKeys.env, IDENTITY_URL: identity.url, CATALOG_URL: catalog.url, PAYMENTS_URL: payments.url },
  });
  const tickets = { ...withKeys, env: { ...withKeys.env, DB_SCHEMA: ticketsSchema } };
  const verifier = await startTestService(ticketsVerifierService, tickets);
  const worker = await startTestService(ticketsWorkerService, tickets);
  const gateway = await createGateway(
    loadConfig(gatewayConfigSchema, {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
      IDENTITY_URL: identity.url,
      CATALOG_URL: catalog.url,
      ORDERS_URL: orders.url,
      PAYMENTS_URL: payments.url,
      TICKETS_VERIFIER_URL: verifier.url,
    }),
  );
  sandbox.webhook.url = `${gateway.url}/api/payments/webhook`;
  const services: TestService<unknown>[] = [worker, verifier, orders, payments, mail, catalog, identity];

  /** A JSON call through the gateway, as the browser makes it. */
  async function call(method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}) {
    const response = await fetch(gateway.url + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
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
    catalog,
    orders,
    sandbox,
    call,
    mailTo,
    catcher,
    async stop() {
      await gateway.close();
      for (const service of services) await service.stop();
      await dropSchemas([ticketsSchema]);
      await Promise.all([catcher.close(), sandbox.close()]);
    },
  };
}
