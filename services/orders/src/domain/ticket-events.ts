import type { Knex, Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { findOrder, markTicketReset, markTicketUsed, storeTicketQr } from '../data/orders-repository.ts';

/**
 * The buyer's view of each ticket (`ticket_views`, a read model of tickets' data): its QR image once issued (again,
 * to a new holder: the QR before is replaced), and whether it was used at the door; each noted on the order's
 * timeline. A ticket issued before orders had several names no line: it is the first.
 */
export async function ticketIssued(
  logger: Logger,
  trx: Knex.Transaction,
  ticket: EventPayload<'ticket.issued'>,
  issuedAt: string,
): Promise<void> {
  const itemIndex = ticket.itemIndex ?? 0;
  const stored = await storeTicketQr(trx, { ...ticket, itemIndex }, issuedAt);
  logger.info({ orderId: ticket.orderId, ticketId: ticket.ticketId, itemIndex, stored }, 'ticket issued');
}

/**
 * A check-in is recorded on the order's row, which a withdrawal writes too: a check-in of any of its tickets recorded
 * first refuses the withdrawal (a withdrawal is of the whole order). A withdrawn ticket is void before any money goes back, so an admission of it reported later is a fault
 * to follow up: logged as an error.
 */
export async function ticketCheckedIn(
  logger: Logger,
  trx: Knex.Transaction,
  checkIn: EventPayload<'ticket.checked-in'>,
): Promise<void> {
  const changed = await markTicketUsed(trx, checkIn, new Date(checkIn.usedAt));
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
  const changed = await markTicketReset(trx, reset, new Date(reset.resetAt), reset.firstUsedAt !== null);
  logger.info(
    { orderId: reset.orderId, ticketId: reset.ticketId, sessionId: reset.sessionId, changed },
    'ticket reset',
  );
}
