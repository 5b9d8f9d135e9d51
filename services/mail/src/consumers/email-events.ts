import type { Envelope, EventPayload, EventType } from '@ticketing/proto';
import { minutesBetween, type TemplateData } from '../templates/index.ts';
import type { EmailRequest } from '../domain/queue-email.ts';

export interface EventContext {
  event: Envelope;
  /** The site's address, for links in e-mails. */
  publicUrl: string;
}

type EmailsFor<T extends EventType> = (payload: EventPayload<T>, context: EventContext) => EmailRequest[];

/** The link of the reset-password page for a token. */
export const resetPasswordUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;

/** What every purchase event carries about the buyer and the order. */
interface PurchaseFacts {
  userId: string;
  orderNumber: string;
  buyer: { name: string; email: string };
  event: { title: string };
}

/** A purchase e-mail to the buyer: greeting, order number and event title, plus the template's own data. */
function toBuyer<N extends 'ticket' | 'card-payment-link' | 'payment-refunded'>(
  facts: PurchaseFacts,
  template: N,
  data: Omit<TemplateData<N>, 'name' | 'orderNumber' | 'eventTitle'>,
): EmailRequest {
  const shared = { name: facts.buyer.name, orderNumber: facts.orderNumber, eventTitle: facts.event.title };
  // One template's request; TypeScript cannot narrow the union of all templates from a generic name.
  return {
    template,
    to: facts.buyer.email,
    userId: facts.userId,
    data: { ...shared, ...data },
  } as unknown as EmailRequest;
}

/**
 * Which events cause which e-mails: an event type → the e-mails (template + data) to queue for it. A new e-mail
 * is a template plus an entry here; the consumer, deduplication and delivery need nothing else.
 */
export const emailEvents: { [T in EventType]?: EmailsFor<T> } = {
  'user.verification-code-issued': (payload, { event }) => [
    {
      template: 'verification-code',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        code: payload.code,
        validMinutes: minutesBetween(event.occurredAt, payload.expiresAt),
      },
    },
  ],
  'user.password-reset-requested': (payload, { event, publicUrl }) => [
    {
      template: 'password-reset',
      to: payload.email,
      userId: payload.userId,
      data: {
        name: payload.name,
        resetUrl: resetPasswordUrl(publicUrl, payload.token),
        validMinutes: minutesBetween(event.occurredAt, payload.expiresAt),
      },
    },
  ],
  'ticket.issued': (payload) => [
    toBuyer(payload, 'ticket', {
      eventDate: payload.event.date,
      location: payload.event.location,
      qrPng: payload.qrCodeData.slice(payload.qrCodeData.indexOf(',') + 1),
    }),
  ],
  'order.created': (payload) =>
    payload.paymentMethod === 'credit_card' && payload.invoiceUrl
      ? [
          toBuyer(payload, 'card-payment-link', {
            eventDate: payload.event.date,
            amount: payload.amount,
            invoiceUrl: payload.invoiceUrl,
          }),
        ]
      : [],
  'order.refunded': (payload) => [toBuyer(payload, 'payment-refunded', { amount: payload.amount })],
};
