import type { Knex, Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { markTicketReset, markTicketUsed, storeTicketQr } from '../data/orders-repository.ts';

/**
 * The buyer's view of the ticket: its QR image once issued, and whether it was used at the door; each noted on the
 * order's timeline.
 */
export async function ticketIssued(
  logger: Logger,
  trx: Knex.Transaction,
  ticket: EventPayload<'ticket.issued'>,
  issuedAt: string,
): Promise<void> {
  const stored = await storeTicketQr(trx, ticket.orderId, ticket.qrCodeData, issuedAt);
  logger.info({ orderId: ticket.orderId, ticketId: ticket.ticketId, stored }, 'ticket issued');
}

export async function ticketCheckedIn(
  logger: Logger,
  trx: Knex.Transaction,
  checkIn: EventPayload<'ticket.checked-in'>,
): Promise<void> {
  const changed = await markTicketUsed(trx, checkIn.orderId, new Date(checkIn.usedAt));
  logger.info({ orderId: checkIn.orderId, ticketId: checkIn.ticketId, changed }, 'ticket used');
}

export async function ticketReset(
  logger: Logger,
  trx: Knex.Transaction,
  reset: EventPayload<'ticket.reset'>,
): Promise<void> {
  const changed = await markTicketReset(trx, reset.orderId, new Date(reset.resetAt));
  logger.info({ orderId: reset.orderId, ticketId: reset.ticketId, changed }, 'ticket reset');
}
