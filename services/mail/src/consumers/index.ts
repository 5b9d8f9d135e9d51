import type { EventHandler, EventHandlers, Logger } from '@ticketing/platform';
import type { EventPayload, EventType } from '@ticketing/proto';
import { forgetUser } from '../domain/forget-user.ts';
import { dedupeKeyFor, queueEmail, type EmailRequest } from '../domain/queue-email.ts';
import { emailEvents, type EventContext } from './email-events.ts';

type AnyEmailsFor = (payload: unknown, context: EventContext) => EmailRequest[];

export interface ConsumerDeps {
  logger: Logger;
  publicUrl: string;
  /** The courtesy service's base URL: invitations attach the file it serves. */
  courtesyUrl: string;
  /** The certificates service's base URL: a certificate's e-mail attaches the PDF it serves. */
  certificatesUrl: string;
  /** Called once an e-mail is committed to the queue, so the worker sends it without waiting for its poll. */
  queued(): void;
}

/** The mail service's handlers: every event of `emailEvents` queues its e-mails; `user.deleted` forgets the user. */
export function mailConsumers({
  logger,
  publicUrl,
  courtesyUrl,
  certificatesUrl,
  queued,
}: ConsumerDeps): EventHandlers {
  const handlers: EventHandlers = {};
  for (const [type, emailsFor] of Object.entries(emailEvents) as unknown as [EventType, AnyEmailsFor][]) {
    const handler: EventHandler = async (payload, { trx, event }) => {
      const requests = emailsFor(payload, { event, publicUrl, courtesyUrl, certificatesUrl });
      let stored = 0;
      for (const request of requests) {
        const result = await queueEmail(trx, request, {
          dedupeKey: request.dedupeKey ?? dedupeKeyFor(event.id, request.template),
          correlationId: event.correlationId,
          // Every event about an order names it so: its e-mails show on the order's timeline once sent.
          orderId: (payload as { orderId?: string }).orderId ?? null,
        });
        const fields = { eventId: event.id, topic: type, template: request.template };
        if (result.outcome === 'queued') {
          stored++;
          logger.info({ ...fields, emailId: result.id }, 'e-mail queued');
        } else if (result.outcome === 'duplicate') {
          logger.info(fields, 'e-mail already queued for this event');
        } else {
          logger.info({ ...fields, userId: request.userId }, 'e-mail not queued: the account was deleted');
        }
      }
      if (stored > 0) trx.executionPromise.then(queued, () => {});
    };
    handlers[type] = handler;
  }

  handlers['user.deleted'] = async (payload: EventPayload<'user.deleted'>, { trx }) => {
    const { redacted, cancelled } = await forgetUser(trx, payload.userId);
    logger.info({ userId: payload.userId, redacted, cancelled }, 'personal content removed from e-mails');
  };
  return handlers;
}
