/**
 * A local mail catcher: an SMTP server that keeps every message it receives in memory (the last 2000) and a web
 * inbox with a JSON API to read them. Nothing is delivered anywhere.
 *
 *   node scripts/mail-catcher.ts [--smtp-port 1025] [--http-port 1080] [--host 127.0.0.1]
 *
 * API: GET /api/email (newest first), GET /api/email/:id, GET /api/email/:id/html, GET /api/email/:id/text,
 * GET /api/email/:id/attachment/:filename, DELETE /api/email/:id, DELETE /api/email/all. Inbox: GET /.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHttpServer, listenHttp } from './mail-catcher/http.ts';
import { createSmtpServer, listenSmtp } from './mail-catcher/smtp.ts';
import { createMessageStore, type CaughtMessage } from './mail-catcher/store.ts';

export type { CaughtMessage, CaughtAttachment } from './mail-catcher/store.ts';

export interface MailCatcherOptions {
  /** 0 picks a free port. */
  smtpPort?: number;
  httpPort?: number;
  host?: string;
  /** How many messages are kept; older ones are dropped. */
  maxMessages?: number;
  /** Larger messages are refused with 552. */
  maxMessageBytes?: number;
}

export interface MailCatcher {
  smtpUrl: string;
  httpUrl: string;
  smtpPort: number;
  httpPort: number;
  /** Newest first, attachments with their bytes. */
  messages(): CaughtMessage[];
  clear(): void;
  close(): Promise<void>;
}

export const DEFAULT_SMTP_PORT = 1025;
export const DEFAULT_HTTP_PORT = 1080;

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const {
    smtpPort = DEFAULT_SMTP_PORT,
    httpPort = DEFAULT_HTTP_PORT,
    host = '127.0.0.1',
    maxMessages = 2000,
    maxMessageBytes = 25 * 1024 * 1024,
  } = options;
  const store = createMessageStore(maxMessages);
  const smtp = createSmtpServer({ maxMessageBytes, onMessage: (message) => store.add(message) });
  const http = createHttpServer(store);
  const closeSmtp = () => new Promise<void>((resolve) => smtp.close(resolve));
  const closeHttp = () =>
    new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });

  let ports: [number, number];
  try {
    ports = [await listenSmtp(smtp, smtpPort, host), await listenHttp(http, httpPort, host)];
  } catch (error) {
    if (smtp.server.listening) await closeSmtp();
    throw error;
  }
  const [smtpBound, httpBound] = ports;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    smtpUrl: `smtp://${shownHost}:${smtpBound}`,
    httpUrl: `http://${shownHost}:${httpBound}`,
    smtpPort: smtpBound,
    httpPort: httpBound,
    messages: () => store.list(),
    clear: () => store.clear(),
    async close() {
      await Promise.all([closeSmtp(), closeHttp()]);
    },
  };
}

const runDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);

if (runDirectly) {
  const { values } = parseArgs({
    options: {
      'smtp-port': { type: 'string', default: String(DEFAULT_SMTP_PORT) },
      'http-port': { type: 'string', default: String(DEFAULT_HTTP_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  const port = (name: 'smtp-port' | 'http-port') => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 0 || value > 65535) {
      console.error(`--${name} deve ser uma porta entre 0 e 65535`);
      process.exit(1);
    }
    return value;
  };
  const catcher = await startMailCatcher({
    smtpPort: port('smtp-port'),
    httpPort: port('http-port'),
    host: values.host,
  }).catch((error: unknown) => {
    console.error(`Não foi possível iniciar a caixa de e-mails: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
  console.log(`Caixa de e-mails de teste: ${catcher.httpUrl} (SMTP em ${catcher.smtpUrl})`);
  const stop = async () => {
    await catcher.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
