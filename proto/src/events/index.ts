import type { z } from 'zod';
import { eventCancelled, eventChanged } from './catalog.ts';
import { courtesyInvited, courtesyRedeemed } from './courtesy.ts';
import { deadLetter } from './bus.ts';
import {
  orderCancelled,
  orderCreated,
  orderExpired,
  orderHolderChanged,
  orderPaid,
  orderRefunded,
  orderWithdrawalRequested,
} from './orders.ts';
import { invoiceChanged, paymentConfirmed, paymentFailed, paymentOverdue, paymentRefunded } from './payments.ts';
import { ticketCheckedIn, ticketIssued, ticketResent, ticketReset, ticketWithdrawalDecided } from './tickets.ts';
import { mailSent } from './mail.ts';
import { certificateIssued } from './certificates.ts';
import {
  doorEventsChanged,
  passwordResetRequested,
  registrationAttempted,
  signInLinkRequested,
  userDeleted,
  userRegistered,
  verificationCodeIssued,
} from './identity.ts';

/** The registry of event types: topic name → payload schema, owned by the producing service. */
export const eventSchemas = {
  'user.registered': userRegistered,
  'user.verification-code-issued': verificationCodeIssued,
  'user.password-reset-requested': passwordResetRequested,
  'user.deleted': userDeleted,
  'user.sign-in-link-requested': signInLinkRequested,
  'user.registration-attempted': registrationAttempted,
  'user.door-events-changed': doorEventsChanged,
  'event.changed': eventChanged,
  'event.cancelled': eventCancelled,
  'order.created': orderCreated,
  'order.paid': orderPaid,
  'order.cancelled': orderCancelled,
  'order.expired': orderExpired,
  'order.refunded': orderRefunded,
  'order.withdrawal-requested': orderWithdrawalRequested,
  'order.holder-changed': orderHolderChanged,
  'payment.confirmed': paymentConfirmed,
  'payment.failed': paymentFailed,
  'payment.overdue': paymentOverdue,
  'payment.refunded': paymentRefunded,
  'invoice.changed': invoiceChanged,
  'courtesy.redeemed': courtesyRedeemed,
  'courtesy.invited': courtesyInvited,
  'ticket.issued': ticketIssued,
  'ticket.checked-in': ticketCheckedIn,
  'ticket.reset': ticketReset,
  'ticket.resent': ticketResent,
  'ticket.withdrawal-decided': ticketWithdrawalDecided,
  'mail.sent': mailSent,
  'certificate.issued': certificateIssued,
  'bus.dead-letter': deadLetter,
} satisfies Record<string, z.ZodType>;

export type EventType = keyof typeof eventSchemas;
export type EventPayload<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;
export const DEAD_LETTER_TOPIC = 'bus.dead-letter';
export { deadLetter as deadLetterSchema };
