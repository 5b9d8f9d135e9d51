import type { Envelope, EventPayload, EventType } from '@ticketing/proto';
import { minutesBetween } from '../templates/index.ts';
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
    {
      template: 'ticket',
      to: payload.buyer.email,
      userId: payload.userId,
      data: {
        name: payload.buyer.name,
        orderNumber: payload.orderNumber,
        eventTitle: payload.event.title,
        eventDate: payload.event.date,
        location: payload.event.location,
        qrPng: payload.qrCodeData.slice(payload.qrCodeData.indexOf(',') + 1),
      },
    },
  ],
  'order.created': (payload) =>
    payload.paymentMethod === 'credit_card' && payload.invoiceUrl
      ? [
          {
            template: 'card-payment-link',
            to: payload.buyer.email,
            userId: payload.userId,
            data: {
              name: payload.buyer.name,
              orderNumber: payload.orderNumber,
              eventTitle: payload.event.title,
              eventDate: payload.event.date,
              amount: payload.amount,
              invoiceUrl: payload.invoiceUrl,
            },
          },
        ]
      : [],
  'order.refunded': (payload) => [
    {
      template: 'payment-refunded',
      to: payload.buyer.email,
      userId: payload.userId,
      data: {
        name: payload.buyer.name,
        orderNumber: payload.orderNumber,
        eventTitle: payload.event.title,
        amount: payload.amount,
      },
    },
  ],
};
