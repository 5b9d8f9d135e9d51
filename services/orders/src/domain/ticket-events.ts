import type { Knex, Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { findOrder, markTicketReset, markTicketUsed, storeTicketQr } from '../data/orders-repository.ts';

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

/**
 * A check-in is recorded on the order's row, which a withdrawal writes too: a check-in recorded first refuses the
 * withdrawal. A withdrawn ticket is void before any money goes back, so an admission of it reported later is a fault
 * to follow up: logged as an error.
 */
export async function ticketCheckedIn(
  logger: Logger,
  trx: Knex.Transaction,
  checkIn: EventPayload<'ticket.checked-in'>,
): Promise<void> {
  const changed = await markTicketUsed(trx, checkIn.orderId, new Date(checkIn.usedAt));
  const fields = { orderId: checkIn.orderId, ticketId: checkIn.ticketId, changed };
  logger.info(fields, 'ticket used');
  const order = await findOrder(trx, checkIn.orderId);
  if (order?.refundReason === 'withdrawal') logger.error(fields, 'ticket admitted after its withdrawal');
}

export async function ticketReset(
  logger: Logger,
  trx: Knex.Transaction,
  reset: EventPayload<'ticket.reset'>,
): Promise<void> {
  const changed = await markTicketReset(trx, reset.orderId, new Date(reset.resetAt), reset.firstUsedAt !== null);
  logger.info(
    { orderId: reset.orderId, ticketId: reset.ticketId, sessionId: reset.sessionId, changed },
    'ticket reset',
  );
}
