import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import {
  cancelTicket,
  cancelTicketUnlessAdmitted,
  findTicketByOrder,
  firstAdmission,
  lockOrderTicket,
  recordCancellation,
} from '../data/tickets-repository.ts';
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

/**
 * The buyer withdrew from the order: its ticket is voided unless the door admitted it first (one conditional
 * statement racing the door's own), and the outcome goes back to orders (ticket.withdrawal-decided), which gives
 * the money back only for a void ticket. A ticket not issued yet is recorded cancelled, so it is issued cancelled.
 * True when the ticket is void, so the door panels hear of it.
 */
export async function withdrawalRequested(
  deps: Pick<TicketsDeps, 'logger' | 'outbox'>,
  trx: Knex.Transaction,
  withdrawal: EventPayload<'order.withdrawal-requested'>,
): Promise<boolean> {
  await lockOrderTicket(trx, withdrawal.orderId);
  const ticket =
    (await cancelTicketUnlessAdmitted(trx, withdrawal.orderId)) ?? (await findTicketByOrder(trx, withdrawal.orderId));
  const usedAt = ticket?.status === 'valid' ? firstAdmission(ticket.admissions) : null;
  const admitted = usedAt !== null;
  if (!admitted) await recordCancellation(trx, withdrawal.orderId, 'withdrawal');
  const { requestedAt: _, ...order } = withdrawal;
  await deps.outbox.add(trx, 'ticket.withdrawal-decided', withdrawal.orderId, {
    ...order,
    ticketId: ticket?.id ?? null,
    outcome: admitted ? 'admitted' : 'cancelled',
    usedAt: usedAt?.toISOString() ?? null,
  });
  const fields = { orderId: withdrawal.orderId, ticketId: ticket?.id ?? null };
  deps.logger.info(fields, admitted ? 'withdrawal refused: ticket admitted' : 'ticket voided by withdrawal');
  return !admitted;
}
