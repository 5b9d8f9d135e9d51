import type { EventHandlers } from '@ticketing/platform';
import { courtesyRedeemed } from '../domain/courtesy-orders.ts';
import type { OrdersDeps } from '../domain/order.ts';
import { paymentConfirmed, paymentFailed, paymentOverdue } from '../domain/payment-events.ts';
import { ticketCheckedIn, ticketIssued, ticketReset } from '../domain/ticket-events.ts';

/**
 * What orders hears: payments move the order, a redeemed courtesy becomes a paid order, tickets fill in the buyer's
 * view of the ticket.
 */
export function ordersConsumers(deps: OrdersDeps): EventHandlers {
  return {
    'payment.confirmed': (payload, { trx }) => paymentConfirmed(deps, trx, payload),
    'payment.failed': (payload, { trx }) => paymentFailed(deps, trx, payload),
    'payment.overdue': (payload, { trx }) => paymentOverdue(deps, trx, payload),
    'courtesy.redeemed': (payload, { trx }) => courtesyRedeemed(deps, trx, payload),
    'ticket.issued': (payload, { trx }) => ticketIssued(deps.logger, trx, payload),
    'ticket.checked-in': (payload, { trx }) => ticketCheckedIn(deps.logger, trx, payload),
    'ticket.reset': (payload, { trx }) => ticketReset(deps.logger, trx, payload),
  };
}
