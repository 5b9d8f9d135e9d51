import { isForgottenUser, type EventHandlers } from '@ticketing/platform';
import { erasedPerson, type EventPayload } from '@ticketing/proto';
import { saveEvent } from '../data/events-repository.ts';
import { admit, saveHolder, unadmit } from '../data/holders-repository.ts';
import { forgetUser, revokeOrder } from '../domain/corrections.ts';
import type { CertificatesDeps } from '../domain/deps.ts';

/**
 * What certificates hear: events and their sessions, tickets and their holders, admissions per session and their
 * undoing, refunds and chargebacks (orders announces both as order.refunded), and deleted accounts.
 */
export function certificatesConsumers(deps: CertificatesDeps): EventHandlers {
  return {
    'event.changed': async (event: EventPayload<'event.changed'>, { trx }) => {
      await saveEvent(trx, {
        id: event.eventId,
        title: event.title,
        date: new Date(event.date),
        location: event.location,
        sessions: event.sessions ?? null,
      });
    },
    'ticket.issued': async (ticket: EventPayload<'ticket.issued'>, { trx }) => {
      // The certificate is its holder's (the buyer, on tickets before holders), issued again to a new one.
      const holder = ticket.holder ?? ticket.buyer;
      const buyerHolds = holder.email.toLowerCase() === ticket.buyer.email.toLowerCase();
      // A ticket an account deleted before its announcement came holds names nobody and is never certified.
      const forgotten = buyerHolds && (await isForgottenUser(trx, ticket.userId));
      const person = forgotten ? erasedPerson(ticket.userId) : holder;
      await saveHolder(trx, {
        ticket_id: ticket.ticketId,
        order_id: ticket.orderId,
        user_id: ticket.userId,
        event_id: ticket.eventId,
        name: person.name,
        email: person.email,
        buyer_holds: buyerHolds,
        ...(forgotten ? { revoked_at: new Date() } : {}),
      });
    },
    'ticket.checked-in': async (checkIn: EventPayload<'ticket.checked-in'>, { trx }) => {
      await admit(trx, checkIn.ticketId, checkIn.sessionId, new Date(checkIn.usedAt));
    },
    'ticket.reset': async (reset: EventPayload<'ticket.reset'>, { trx }) => {
      await unadmit(trx, reset.ticketId, reset.sessionId);
    },
    'order.refunded': (refund: EventPayload<'order.refunded'>, { trx }) => revokeOrder(trx, refund),
    'user.deleted': (deleted: EventPayload<'user.deleted'>, { trx }) => forgetUser(deps, trx, deleted),
  };
}
