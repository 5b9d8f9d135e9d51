import { SERVICES } from '../system.ts';
import type { EventType } from './index.ts';

/** The names services sign as on the bus (both tickets processes are `tickets`): those that may publish events. */
export type Producer = (typeof SERVICES)[number]['signsAs'];
export const PRODUCERS: readonly Producer[] = [...new Set(SERVICES.map((service) => service.signsAs))];

/**
 * Who alone may publish each event type: a message of that type from anyone else is a forgery. Dead letters are
 * written by whichever consumer gave up on an event, so every producer may write them.
 */
export const EVENT_OWNERS = {
  'user.registered': ['identity'],
  'user.verification-code-issued': ['identity'],
  'user.password-reset-requested': ['identity'],
  'user.deleted': ['identity'],
  'user.sign-in-link-requested': ['identity'],
  'user.registration-attempted': ['identity'],
  'user.door-events-changed': ['identity'],
  'event.changed': ['catalog'],
  'event.cancelled': ['catalog'],
  'order.created': ['orders'],
  'order.paid': ['orders'],
  'order.cancelled': ['orders'],
  'order.expired': ['orders'],
  'order.refunded': ['orders'],
  'order.withdrawal-requested': ['orders'],
  'order.holder-changed': ['orders'],
  'payment.confirmed': ['payments'],
  'payment.failed': ['payments'],
  'payment.overdue': ['payments'],
  'payment.refunded': ['payments'],
  'invoice.changed': ['payments'],
  'courtesy.redeemed': ['courtesy'],
  'courtesy.invited': ['courtesy'],
  'ticket.issued': ['tickets'],
  'ticket.checked-in': ['tickets'],
  'ticket.reset': ['tickets'],
  'ticket.resent': ['tickets'],
  'ticket.withdrawal-decided': ['tickets'],
  'mail.sent': ['mail'],
  'certificate.issued': ['certificates'],
  'bus.dead-letter': PRODUCERS,
} as const satisfies Record<EventType, readonly Producer[]>;

/** Whether `producer` may publish `type`. */
export const mayPublish = (producer: string, type: string): boolean =>
  (EVENT_OWNERS as Record<string, readonly string[]>)[type]?.includes(producer) ?? false;
