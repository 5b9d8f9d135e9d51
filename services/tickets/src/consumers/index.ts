import { doorEventsChanged, type EventHandlers } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { eventOfTicket } from '../data/counts-repository.ts';
import { recordEventChange } from '../data/event-snapshots-repository.ts';
import { orderRefunded, withdrawalRequested } from '../domain/cancel-ticket.ts';
import type { TicketsDeps } from '../domain/deps.ts';
import { forgetUser } from '../domain/erasure.ts';
import { issueTickets } from '../domain/issue-ticket.ts';
import { holderChanged } from '../domain/reissue-ticket.ts';
import type { DoorNotices } from './door-notices.ts';

/**
 * The events the worker consumes, each handler in the transaction of the event's inbox row: a paid order gets its
 * tickets, a ticket handed to another holder is reissued, a refunded order loses its tickets, a withdrawn one loses
 * them unless one was admitted first, a deleted account is erased, a door staffer's assigned events are kept, and an
 * event is kept as catalog last announced it. Every change to an
 * event's admitted or expected tickets (the service's own ticket events, and cancellations) is announced to the door
 * panels.
 */
export function ticketsConsumers(
  deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>,
  notices: DoorNotices,
): EventHandlers {
  return {
    'event.changed': async (changed: EventPayload<'event.changed'>, { trx, event }) => {
      const { eventId, title, date, location, sessions } = changed;
      const snapshot = { title, date: new Date(date), location, sessions };
      // Catalog stamps the announcement while it holds the event's row, so a later edit carries a later instant.
      await recordEventChange(trx, eventId, snapshot, new Date(event.occurredAt));
    },
    'order.paid': async (payload: EventPayload<'order.paid'>, { trx }) => {
      await issueTickets(deps, trx, payload);
    },
    'order.holder-changed': async (payload: EventPayload<'order.holder-changed'>, { trx }) => {
      await holderChanged(deps, trx, payload);
    },
    'order.refunded': async (payload: EventPayload<'order.refunded'>, { trx }) => {
      await orderRefunded(deps, trx, payload);
      notices.afterCommit(trx, payload.eventId);
    },
    'order.withdrawal-requested': async (payload: EventPayload<'order.withdrawal-requested'>, { trx }) => {
      if (await withdrawalRequested(deps, trx, payload)) notices.afterCommit(trx, payload.eventId);
    },
    'user.deleted': (payload: EventPayload<'user.deleted'>, { trx }) => forgetUser(deps, trx, payload),
    'user.door-events-changed': (payload: EventPayload<'user.door-events-changed'>, { trx }) =>
      doorEventsChanged(deps, trx, payload),
    'ticket.issued': async (payload: EventPayload<'ticket.issued'>, { trx }) => {
      notices.afterCommit(trx, payload.eventId);
    },
    'ticket.checked-in': async (payload: EventPayload<'ticket.checked-in'>, { trx }) => {
      notices.afterCommit(trx, payload.eventId);
    },
    'ticket.reset': async (payload: EventPayload<'ticket.reset'>, { trx }) => {
      const eventId = await eventOfTicket(trx, payload.ticketId);
      if (eventId) notices.afterCommit(trx, eventId);
    },
  };
}
