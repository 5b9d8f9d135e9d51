import type { EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { orderRefunded } from '../domain/cancel-ticket.ts';
import type { TicketsDeps } from '../domain/deps.ts';
import { forgetUser } from '../domain/erasure.ts';
import { issueTicket } from '../domain/issue-ticket.ts';

/**
 * The events the worker consumes, each handler in the transaction of the event's inbox row: a paid order gets its
 * ticket, a refunded one loses it, a deleted account is erased.
 */
export function ticketsConsumers(deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>): EventHandlers {
  return {
    'order.paid': async (payload: EventPayload<'order.paid'>, { trx }) => {
      await issueTicket(deps, trx, payload);
    },
    'order.refunded': (payload: EventPayload<'order.refunded'>, { trx }) => orderRefunded(deps, trx, payload),
    'user.deleted': (payload: EventPayload<'user.deleted'>, { trx }) => forgetUser(deps, trx, payload),
  };
}
