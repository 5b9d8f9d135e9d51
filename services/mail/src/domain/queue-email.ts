import { currentTraceparent, isForgottenUser, type Knex } from '@ticketing/platform';
import { z } from 'zod';
import { insertEmail } from '../data/email-queue.ts';
import { renderEmail, type TemplateData, type TemplateName } from '../templates/index.ts';
import { emailAttachment, type EmailAttachment } from './attachments.ts';

/** One e-mail to send: which template with which data, to whom, and on whose account. */
export type EmailRequest = {
  [N in TemplateName]: {
    template: N;
    data: TemplateData<N>;
    to: string;
    /** The account the e-mail belongs to: its content is removed when that account is deleted. */
    userId: string | null;
    /** Files beyond those the template itself attaches (e.g. one an administrator chose for a mass send). */
    attachments?: EmailAttachment[];
    /** What makes the e-mail unique when several events may ask for it (default: the event and the template). */
    dedupeKey?: string;
  };
}[TemplateName];

export type QueueOutcome =
  | { outcome: 'queued'; id: string }
  | { outcome: 'duplicate' }
  /** The account was deleted before this e-mail's event arrived: nothing is stored. */
  | { outcome: 'user_forgotten' };

const recipient = z.email();
const attachments = z.array(emailAttachment);

/** The key that makes an e-mail unique: the event that caused it and the template (one event may cause several). */
export const dedupeKeyFor = (eventId: string, template: TemplateName) => `${eventId}:${template}`;

/**
 * Renders an e-mail and stores it for delivery in the caller's transaction (the consumer's, with its inbox row):
 * nothing is sent here, so a failure to send can never undo or repeat the event's handling.
 */
export async function queueEmail(
  trx: Knex.Transaction,
  request: EmailRequest,
  source: { dedupeKey: string; correlationId?: string | null; orderId?: string | null },
): Promise<QueueOutcome> {
  if (request.userId && (await isForgottenUser(trx, request.userId))) return { outcome: 'user_forgotten' };
  const rendered = renderEmail(request.template, request.data as never);
  const id = await insertEmail(trx, {
    dedupe_key: source.dedupeKey,
    template: request.template,
    user_id: request.userId,
    order_id: source.orderId ?? null,
    correlation_id: source.correlationId ?? null,
    traceparent: currentTraceparent() ?? null,
    to: recipient.parse(request.to.trim()),
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    attachments: attachments.parse([...rendered.attachments, ...(request.attachments ?? [])]),
  });
  return id ? { outcome: 'queued', id } : { outcome: 'duplicate' };
}
