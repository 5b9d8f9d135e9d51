import { loadConfig } from '@ticketing/platform';
import { TEST_REDIS_URL, startTestService, uniqueName, waitFor, type TestService } from '@ticketing/platform/testing';
import { createGateway, gatewayConfigSchema } from '@ticketing/gateway';
import { identityService } from '@ticketing/identity';
import { mailService } from '@ticketing/mail';
import { catalogService } from '@ticketing/catalog';
import { startMailCatcher, type CaughtMessage } from '../../scripts/mail-catcher.ts';

export const PUBLIC_URL = 'http://localhost:8080';

/**
 * The product as `npm start` runs it — identity, catalog, mail, the gateway and a real SMTP catcher —
 * in one process, sharing one bus and one Redis prefix, in schemas made for this test file.
 */
export async function startSystem() {
  const busSchema = uniqueName('bus');
  const redisPrefix = `${uniqueName('sys')}:`;
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, host: '127.0.0.1' });
  const shared = { busSchema, redisPrefix, env: { PUBLIC_URL, DEV_TOOLS: 'true' } };
  const identity = await startTestService(identityService, shared);
  const catalog = await startTestService(catalogService, shared);
  const mail = await startTestService(mailService, {
    ...shared,
    env: { ...shared.env, SMTP_URL: catcher.smtpUrl, MAIL_POLL_MS: '100' },
  });
  const gateway = await createGateway(
    loadConfig(gatewayConfigSchema, {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      LOG_LEVEL: 'silent',
      IDENTITY_URL: identity.url,
      CATALOG_URL: catalog.url,
    }),
  );
  const services: TestService<unknown>[] = [identity, catalog, mail];

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
    call,
    mailTo,
    catcher,
    async stop() {
      await gateway.close();
      for (const service of services) await service.stop();
      await catcher.close();
    },
  };
}
