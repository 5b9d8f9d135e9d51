import type { EmailStatus, NewEmailRow } from '../src/data/email-queue.ts';
import { createServer } from 'node:net';
import { defineService } from '@ticketing/platform';
import {
  captureLogs,
  dropSchemas,
  publishAsOwner,
  startTestService,
  uniqueName,
  waitFor,
  type TestService,
} from '@ticketing/testkit';
import type { EventPayload, EventType } from '@ticketing/proto';
import { startMailCatcher, type MailCatcher } from '../../../scripts/mail-catcher.ts';
import { mailService, type MailConfig } from '../src/index.ts';

export const PUBLIC_URL = 'https://ingressos.example.com.br';

/** Stands in for the services that publish: writes events to its outbox, signed by their owners. */
const producer = defineService({ name: 'producer', migrations: [], setup: () => ({}) });

/** A port nothing listens on (yet). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type EmailRow = NewEmailRow & {
  id: string;
  status: EmailStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  processed_at: Date | null;
  redacted_at: Date | null;
};

export interface MailHarness {
  mail: TestService<MailConfig>;
  producer: TestService<unknown>;
  logs: ReturnType<typeof captureLogs>;
  busSchema: string;
  schema: string;
  /** Another replica of the mail service on the same schema and bus (closed by the caller). */
  replica(env?: Record<string, string>): Promise<TestService<MailConfig>>;
  /** Publishes an event through the producer's outbox; resolves with its envelope. */
  publish<T extends EventType>(type: T, payload: EventPayload<T>): Promise<{ id: string }>;
  rows(where?: Record<string, unknown>): Promise<EmailRow[]>;
  /** Waits for the one row an event caused to reach a status. */
  rowFor(eventId: string, template: string, status?: EmailRow['status']): Promise<EmailRow>;
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  /** Stops (and forgets) the mail service; starts a new one on the same schema and bus. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The mail service in-process against real PostgreSQL, Redis and SMTP (a catcher, unless `SMTP_URL` is given),
 * with a producer on the same bus. Its logs are captured; it polls fast so tests do not wait.
 */
export async function startMail(env: Record<string, string> = {}): Promise<MailHarness> {
  const busSchema = uniqueName('bus');
  const schema = uniqueName('mail');
  const logs = captureLogs();
  const baseEnv = { PUBLIC_URL, LOG_LEVEL: 'info', MAIL_POLL_MS: '100', DB_SCHEMA: schema };
  const startOne = (extra: Record<string, string>) =>
    startTestService(mailService, { busSchema, logStream: logs.stream, env: { ...baseEnv, ...env, ...extra } });
  const source = await startTestService(producer, { busSchema });
  let mail = await startOne({});

  const harness: MailHarness = {
    get mail() {
      return mail;
    },
    producer: source,
    logs,
    busSchema,
    schema,
    replica: (extra = {}) => startOne(extra),
    publish: (type, payload) => publishAsOwner(source, type, (payload as { userId?: string }).userId ?? type, payload),
    rows: (where = {}) => mail.db('email_queue').where(where).orderBy('created_at'),
    rowFor: (eventId, template, status = 'sent') =>
      waitFor(async () => {
        const [row] = await mail.db('email_queue').where({ dedupe_key: `${eventId}:${template}` });
        return row?.status === status ? (row as EmailRow) : undefined;
      }),
    async metric(name, labels = {}) {
      const metric = await mail.metrics.registry.getSingleMetric(name)?.get();
      const value = metric?.values.find((entry) =>
        Object.entries(labels).every(([key, expected]) => entry.labels[key] === expected),
      );
      return value?.value ?? 0;
    },
    async restart(extra = {}) {
      await mail.close();
      mail = await startOne(extra);
    },
    async stop() {
      await mail.close();
      await source.stop();
      await dropSchemas([schema, busSchema]);
    },
  };
  return harness;
}

/** A catcher on a free port (or the one given), closed by the caller. */
export const startCatcher = (smtpPort = 0): Promise<MailCatcher> => startMailCatcher({ smtpPort, httpPort: 0 });

/**
 * The mail service delivering to a real SMTP catcher, for a test file. A long poll: every e-mail goes out
 * because its consumer wakes the worker on commit. `env` is read when the service starts (after the file's
 * earlier `beforeAll`s), so it may name servers those started.
 */
export function useMailAndCatcher(env: () => Record<string, string> = () => ({})) {
  const parts = {} as { catcher: MailCatcher; harness: MailHarness };
  beforeAll(async () => {
    parts.catcher = await startCatcher();
    parts.harness = await startMail({ ...env(), SMTP_URL: parts.catcher.smtpUrl, MAIL_POLL_MS: '600000' });
  });
  afterAll(async () => {
    await parts.harness.stop();
    await parts.catcher.close();
  });
  return parts;
}

export { waitFor };
