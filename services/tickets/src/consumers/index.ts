import type { EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import type { TicketsDeps } from '../domain/deps.ts';
import { issueTicket } from '../domain/issue-ticket.ts';

/** The events the worker consumes; each handler runs in the transaction of the event's inbox row. */
export function ticketsConsumers(deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>): EventHandlers {
  return {
    'order.paid': async (payload: EventPayload<'order.paid'>, { trx }) => {
      await issueTicket(deps, trx, payload);
    },
  };
}
