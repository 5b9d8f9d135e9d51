import type { EventType } from './index.ts';

/**
 * The event types each consumer group (a service's name) handles, and so may read: Kafka's ACLs and the services'
 * own start both follow this list, so a consumer added in code and not here fails to start instead of failing on
 * the broker. Services that consume nothing (identity, the door API) are absent.
 */
export const EVENT_CONSUMERS = {
  catalog: ['order.cancelled', 'order.expired', 'order.paid', 'order.refunded', 'user.door-events-changed'],
  orders: [
    'courtesy.redeemed',
    'event.cancelled',
    'invoice.changed',
    'mail.sent',
    'payment.confirmed',
    'payment.failed',
    'payment.overdue',
    'payment.refunded',
    'ticket.checked-in',
    'ticket.issued',
    'ticket.reset',
    'ticket.withdrawal-decided',
    'user.deleted',
  ],
  payments: ['order.cancelled', 'order.expired'],
  courtesy: ['event.changed', 'order.cancelled', 'order.expired', 'order.paid', 'user.deleted'],
  'tickets-worker': [
    'event.changed',
    'order.holder-changed',
    'order.paid',
    'order.refunded',
    'order.withdrawal-requested',
    'ticket.checked-in',
    'ticket.issued',
    'ticket.reset',
    'user.deleted',
    'user.door-events-changed',
  ],
  certificates: [
    'event.changed',
    'order.refunded',
    'ticket.checked-in',
    'ticket.issued',
    'ticket.reset',
    'user.deleted',
  ],
  mail: [
    'certificate.issued',
    'courtesy.invited',
    'invoice.changed',
    'order.created',
    'order.paid',
    'order.refunded',
    'ticket.issued',
    'ticket.resent',
    'ticket.withdrawal-decided',
    'user.deleted',
    'user.password-reset-requested',
    'user.registration-attempted',
    'user.sign-in-link-requested',
    'user.verification-code-issued',
  ],
} as const satisfies Record<string, readonly EventType[]>;
export type ConsumerGroup = keyof typeof EVENT_CONSUMERS;

/**
 * Why a service's handlers differ from what EVENT_CONSUMERS grants its group: undefined when they match, when the
 * process consumes nothing (it reads no topic), or when the group is not one of the product's (tests' own).
 */
export function undeclaredConsumers(group: string, topics: readonly string[]): string | undefined {
  const declared: readonly string[] | undefined = (EVENT_CONSUMERS as Record<string, readonly string[]>)[group];
  if (!declared || topics.length === 0) return undefined;
  const extra = topics.filter((topic) => !declared.includes(topic));
  const unused = declared.filter((topic) => !topics.includes(topic));
  if (extra.length === 0 && unused.length === 0) return undefined;
  return `${group} handles [${extra.join(', ')}] not listed in EVENT_CONSUMERS, which lists [${unused.join(', ')}] it does not handle`;
}
