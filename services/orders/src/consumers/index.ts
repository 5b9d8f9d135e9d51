import type { EventHandlers, PeriodicJob } from '@ticketing/platform';
import { courtesyRedeemed } from '../domain/courtesy-orders.ts';
import { forgetUser } from '../domain/erasure.ts';
import { invoiceChanged } from '../domain/invoice-events.ts';
import { eventCancelled } from '../domain/event-cancellation.ts';
import { mailSent } from '../domain/mail-events.ts';
import type { OrdersDeps } from '../domain/order.ts';
import { paymentConfirmed, paymentFailed, paymentOverdue, paymentRefunded } from '../domain/payment-events.ts';
import { ticketCheckedIn, ticketIssued, ticketReset } from '../domain/ticket-events.ts';
import { withdrawalDecided } from '../domain/withdrawal.ts';

/**
 * What orders hears: payments move the order (`refunds` sends the refunds a late payment leaves owed), a redeemed
 * courtesy becomes a paid order, a cancelled event refunds or cancels its orders, tickets fill in the buyer's view
 * of the ticket and settle the buyer's withdrawals (refunded once the ticket is void), e-mails sent about an order
 * go on its timeline, and so does its nota fiscal, a deleted account is erased.
 */
export function ordersConsumers(deps: OrdersDeps, refunds: Pick<PeriodicJob, 'wake'>): EventHandlers {
  const paymentDeps = { ...deps, refunds };
  return {
    'payment.confirmed': (payload, { trx }) => paymentConfirmed(paymentDeps, trx, payload),
    'payment.failed': (payload, { trx }) => paymentFailed(paymentDeps, trx, payload),
    'payment.refunded': (payload, { trx }) => paymentRefunded(paymentDeps, trx, payload),
    'payment.overdue': (payload, { trx }) => paymentOverdue(deps, trx, payload),
    'courtesy.redeemed': (payload, { trx }) => courtesyRedeemed(deps, trx, payload),
    'event.cancelled': (payload, { trx }) => eventCancelled(deps, trx, payload),
    'ticket.issued': (payload, { trx, event }) => ticketIssued(deps.logger, trx, payload, event.occurredAt),
    'ticket.checked-in': (payload, { trx }) => ticketCheckedIn(deps.logger, trx, payload),
    'ticket.reset': (payload, { trx }) => ticketReset(deps.logger, trx, payload),
    'ticket.withdrawal-decided': (payload, { trx }) => withdrawalDecided(deps, trx, payload),
    'mail.sent': (payload, { trx }) => mailSent(deps.logger, trx, payload),
    'invoice.changed': (payload, { trx }) => invoiceChanged(deps.logger, trx, payload),
    'user.deleted': (payload, { trx }) => forgetUser(deps, trx, payload),
  };
}
