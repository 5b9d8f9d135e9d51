import { conflict, notFound, type Knex } from '@ticketing/platform';
import { insertResets } from '../data/scans-repository.ts';
import { clearAdmissions, findOrderTickets, firstAdmission } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { messages } from './messages.ts';

export interface ResetResult {
  ticketId: string;
  orderId: string;
  /** The session whose admission was undone; null: every session's. */
  sessionId: string | null;
  resetAt: Date;
}

/**
 * Lets a used ticket of an order (the one named, else its first) through the door of a session once more (a mistaken scan, a re-entry the staff
 * allows), or of every session it was admitted to (`sessionId` null). The undone admissions are kept in `resets`,
 * and ticket.reset tells the order's projection, with the admission the ticket still has. A cancelled ticket (its
 * order was refunded) stays as it is.
 */
export async function resetTicket(
  deps: Pick<TicketsDeps, 'db' | 'outbox' | 'logger'>,
  request: { orderId: string; ticketId?: string; resetBy: string; sessionId: string | null },
): Promise<ResetResult> {
  const { orderId, resetBy, sessionId } = request;
  const ticketId = request.ticketId?.toLowerCase();
  const result = await deps.db.transaction(async (trx: Knex.Transaction) => {
    const cleared = await clearAdmissions(trx, { orderId, ticketId }, sessionId);
    if (!cleared || Object.keys(cleared.undone).length === 0) {
      const ticket =
        cleared?.ticket ??
        (await findOrderTickets(trx, orderId)).find((one) => ticketId === undefined || one.id === ticketId);
      if (!ticket) throw notFound(messages.notFound);
      if (ticket.status === 'cancelled') throw conflict(messages.cancelledNoReset);
      throw conflict(sessionId ? messages.notUsedInSession : messages.notUsedYet);
    }
    const { ticket, undone } = cleared;
    const resetAt = await insertResets(trx, ticket.id, resetBy, undone);
    await deps.outbox.add(trx, 'ticket.reset', ticket.id, {
      ticketId: ticket.id,
      orderId,
      resetBy,
      resetAt: resetAt.toISOString(),
      sessionId,
      firstUsedAt: firstAdmission(ticket.admissions)?.toISOString() ?? null,
    });
    return { ticketId: ticket.id, orderId, sessionId, resetAt, undone: Object.keys(undone) };
  });
  deps.logger.info({ ticketId: result.ticketId, orderId, resetBy, sessions: result.undone }, 'ticket reset');
  return { ticketId: result.ticketId, orderId, sessionId, resetAt: result.resetAt };
}
