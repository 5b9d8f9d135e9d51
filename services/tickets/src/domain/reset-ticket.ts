import { conflict, notFound, type Knex } from '@ticketing/platform';
import { insertReset } from '../data/scans-repository.ts';
import { clearUse, findTicketByOrder } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { messages } from './messages.ts';

export interface ResetResult {
  ticketId: string;
  orderId: string;
  resetAt: Date;
}

/**
 * Lets the used ticket of an order through the door once more (a mistaken scan, a re-entry the staff allows).
 * The undone check-in is kept in `resets`, and ticket.reset tells the order's projection. A cancelled ticket
 * (its order was refunded) stays as it is.
 */
export async function resetTicket(
  deps: Pick<TicketsDeps, 'db' | 'outbox' | 'logger'>,
  request: { orderId: string; resetBy: string },
): Promise<ResetResult> {
  const { orderId, resetBy } = request;
  const result = await deps.db.transaction(async (trx: Knex.Transaction) => {
    const undone = await clearUse(trx, orderId);
    if (!undone) {
      const ticket = await findTicketByOrder(trx, orderId);
      if (!ticket) throw notFound(messages.notFound);
      throw conflict(ticket.status === 'cancelled' ? messages.cancelledNoReset : messages.notUsedYet);
    }
    const resetAt = await insertReset(trx, {
      ticketId: undone.ticketId,
      resetBy,
      previousUsedAt: undone.previousUsedAt,
      previousUsedBy: undone.previousUsedBy,
    });
    await deps.outbox.add(trx, 'ticket.reset', undone.ticketId, {
      ticketId: undone.ticketId,
      orderId,
      resetBy,
      resetAt: resetAt.toISOString(),
    });
    return { ticketId: undone.ticketId, orderId, resetAt, previousUsedAt: undone.previousUsedAt };
  });
  deps.logger.info(
    { ticketId: result.ticketId, orderId, resetBy, previousUsedAt: result.previousUsedAt.toISOString() },
    'ticket reset',
  );
  return { ticketId: result.ticketId, orderId, resetAt: result.resetAt };
}
