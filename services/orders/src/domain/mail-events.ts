import type { Knex, Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { recordTimeline } from '../data/timeline-repository.ts';

/** An e-mail about the order went out: the back office sees it, with its subject, on the order's timeline. */
export async function mailSent(logger: Logger, trx: Knex.Transaction, mail: EventPayload<'mail.sent'>): Promise<void> {
  await recordTimeline(trx, mail.orderId, { kind: 'email_sent', at: mail.sentAt, detail: mail.subject });
  logger.info({ orderId: mail.orderId, emailId: mail.emailId, template: mail.template }, 'e-mail noted');
}
