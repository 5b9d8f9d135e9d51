import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { cancelTicket, lockOrderTicket, recordCancellation } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';

/**
 * The order's money went back: its ticket no longer admits anyone (the door answers "Ingresso cancelado") and
 * cannot be reset. The cancellation is kept by order id, so a ticket not issued yet (order.paid still on its way)
 * is issued cancelled. Repeating it changes nothing.
 */
export async function orderRefunded(
  deps: Pick<TicketsDeps, 'logger'>,
  trx: Knex.Transaction,
  order: EventPayload<'order.refunded'>,
): Promise<void> {
  await lockOrderTicket(trx, order.orderId);
  const recorded = await recordCancellation(trx, order.orderId, order.reason);
  const ticket = await cancelTicket(trx, order.orderId);
  const fields = { orderId: order.orderId, reason: order.reason, ticketId: ticket?.id ?? null };
  if (ticket) {
    deps.logger.info(fields, 'ticket cancelled');
    return;
  }
  const outcome = recorded ? 'order cancelled before its ticket' : 'ticket already cancelled';
  deps.logger.info({ ...fields, recorded }, outcome);
}
