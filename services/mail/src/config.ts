import type { BaseConfig, ProductionCheck } from '@ticketing/platform';
import { localUrl } from '@ticketing/proto';
import { z } from 'zod';

const positiveInt = () => z.coerce.number().int().positive();

/** `npm start`'s local mail catcher, which delivers nothing. */
const LOCAL_CATCHER_URL = 'smtp://127.0.0.1:1025';

/** The mail service's own settings, on top of the platform's (PUBLIC_URL comes from there). */
export const mailConfig = {
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL (e.g. smtp://user:pass@host:587)' })
    .default(LOCAL_CATCHER_URL),
  MAIL_FROM: z
    .string()
    .regex(/@[^\s@>]+>?\s*$/, 'must be an address, optionally with a name: "Nome" <endereco@dominio>')
    .default('"Educação Farma" <nao-responda@educacaofarma.com.br>'),
  /** Delivery attempts before an e-mail is marked failed (it is kept for the record). */
  MAIL_MAX_ATTEMPTS: positiveInt().default(15),
  /** First retry delay; each further one doubles (with jitter) up to MAIL_RETRY_MAX_MS. */
  MAIL_RETRY_BASE_MS: positiveInt().default(2000),
  MAIL_RETRY_MAX_MS: positiveInt().default(30 * 60_000),
  /** How often the worker looks for due e-mails when nothing wakes it (rows written by other replicas). */
  MAIL_POLL_MS: z.coerce.number().int().min(10).default(5000),
  /** E-mails claimed per round; they are sent over at most MAIL_SMTP_CONNECTIONS connections. */
  MAIL_BATCH_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  MAIL_SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(3),
  /** One send (connect, greet, transfer) gives up after this long and counts as a failed attempt. */
  MAIL_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** The courtesy service, whose internal API serves the files attached to invitations (fetched at send time). */
  COURTESY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://courtesy:3005' })
    .default(localUrl('courtesy')),
  /** The certificates service, whose internal API serves the PDF attached to a certificate's e-mail. */
  CERTIFICATES_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. http://certificates:3009' })
    .default(localUrl('certificates')),
};

/** In production every e-mail (tickets, codes, invitations) must reach its person. */
export const mailProductionChecks = {
  SMTP_URL: (url) => (url === LOCAL_CATCHER_URL ? 'the local mail catcher cannot be used in production' : undefined),
} satisfies Record<string, ProductionCheck>;

export type MailConfig = BaseConfig & z.infer<z.ZodObject<typeof mailConfig>>;
