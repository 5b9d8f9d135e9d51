import type { AuthUser } from '@ticketing/platform';
import type { MyTicketView } from '@ticketing/proto';
import { firstAdmission, ticketsHeldBy } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { toQrPng } from './issue-ticket.ts';

/**
 * The valid tickets the signed-in person holds, found by their account's e-mail: those they bought for themselves and
 * those someone else bought for them (`boughtBy`), soonest event first, each with its current QR code.
 */
export async function myTickets(deps: Pick<TicketsDeps, 'db'>, user: AuthUser): Promise<MyTicketView[]> {
  const tickets = await ticketsHeldBy(deps.db, user.email);
  return tickets.map((ticket) => ({
    ticketId: ticket.id,
    orderNumber: ticket.orderNumber,
    ticketType: ticket.ticketType,
    holderName: ticket.holderName,
    boughtBy: ticket.userId === user.id ? null : (ticket.buyerName ?? ticket.holderName),
    event: {
      id: ticket.eventId,
      title: ticket.eventTitle,
      date: ticket.eventDate.toISOString(),
      location: ticket.eventLocation,
    },
    qrCodeData: toQrPng(ticket.qrText),
    used: firstAdmission(ticket.admissions) !== null,
  }));
}
