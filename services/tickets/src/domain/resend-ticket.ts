import { conflict, notFound, type Knex } from '@ticketing/platform';
import { erasedPerson, participantsMessages } from '@ticketing/proto';
import { lockTickets } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { buyerOf, ticketIssuedOf } from './issue-ticket.ts';

/**
 * Sends the ticket e-mail to its holder once more (they lost it): ticket.resent carries what ticket.issued did,
 * with the ticket's current QR code, and mail sends the same e-mail again, one per request. A cancelled ticket
 * admits nobody, and an erased holder has no address: neither is sent.
 */
export async function resendTicket(
  deps: Pick<TicketsDeps, 'db' | 'outbox' | 'logger'>,
  request: { ticketId: string; resentBy: string },
): Promise<{ ticketId: string; holderEmail: string }> {
  const ticketId = request.ticketId.toLowerCase();
  const ticket = await deps.db.transaction(async (trx: Knex.Transaction) => {
    // Locked, so a refund cancelling it meanwhile comes before or after, never between the check and the event.
    const ticket = (await lockTickets(trx, [ticketId])).get(ticketId);
    if (!ticket) throw notFound(participantsMessages.ticketNotFound);
    if (ticket.status === 'cancelled') throw conflict(participantsMessages.resendCancelled);
    if (ticket.holderEmail === erasedPerson(ticket.userId).email) throw conflict(participantsMessages.resendErased);
    await deps.outbox.add(trx, 'ticket.resent', ticket.id, {
      ...ticketIssuedOf(ticket, buyerOf(ticket)),
      resentBy: request.resentBy,
    });
    return ticket;
  });
  deps.logger.info({ ticketId: ticket.id, orderId: ticket.orderId, resentBy: request.resentBy }, 'ticket resent');
  return { ticketId: ticket.id, holderEmail: ticket.holderEmail };
}
