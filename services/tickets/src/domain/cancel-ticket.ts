import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import {
  cancelOrderTickets,
  cancelOrderTicketsUnlessAdmitted,
  firstAdmission,
  lockOrderTicket,
  recordCancellation,
} from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';

/**
 * The order's money went back: none of its tickets admits anyone any more (the door answers "Ingresso cancelado")
 * and none can be reset. The cancellation is kept by order id, so tickets not issued yet (order.paid still on its
 * way) are issued cancelled. Repeating it changes nothing.
 */
export async function orderRefunded(
  deps: Pick<TicketsDeps, 'logger'>,
  trx: Knex.Transaction,
  order: EventPayload<'order.refunded'>,
): Promise<void> {
  await lockOrderTicket(trx, order.orderId);
  const recorded = await recordCancellation(trx, order.orderId, order.reason);
  const ticketIds = await cancelOrderTickets(trx, order.orderId);
  const fields = { orderId: order.orderId, reason: order.reason };
  for (const ticketId of ticketIds) deps.logger.info({ ...fields, ticketId }, 'ticket cancelled');
  if (ticketIds.length > 0) return;
  const outcome = recorded ? 'order cancelled before its ticket' : 'ticket already cancelled';
  deps.logger.info({ ...fields, recorded }, outcome);
}

/**
 * The buyer withdrew from the order: all its tickets are voided unless the door admitted any of them first (their
 * rows locked, racing the door's own conditional admission), and the outcome goes back to orders
 * (ticket.withdrawal-decided, naming the admitted ticket or the first voided), which gives the money back only when
 * all are void. Tickets not issued yet are recorded cancelled, so they are issued cancelled. True when the tickets
 * are void, so the door panels hear of it.
 */
export async function withdrawalRequested(
  deps: Pick<TicketsDeps, 'logger' | 'outbox'>,
  trx: Knex.Transaction,
  withdrawal: EventPayload<'order.withdrawal-requested'>,
): Promise<boolean> {
  await lockOrderTicket(trx, withdrawal.orderId);
  const tickets = await cancelOrderTicketsUnlessAdmitted(trx, withdrawal.orderId);
  const admittedTicket = tickets.find(
    (ticket) => ticket.status === 'valid' && firstAdmission(ticket.admissions) !== null,
  );
  const usedAt = admittedTicket ? firstAdmission(admittedTicket.admissions) : null;
  const admitted = usedAt !== null;
  if (!admitted) await recordCancellation(trx, withdrawal.orderId, 'withdrawal');
  const named = admittedTicket ?? tickets[0];
  const { requestedAt: _, ...order } = withdrawal;
  await deps.outbox.add(trx, 'ticket.withdrawal-decided', withdrawal.orderId, {
    ...order,
    ticketId: named?.id ?? null,
    outcome: admitted ? 'admitted' : 'cancelled',
    usedAt: usedAt?.toISOString() ?? null,
  });
  const fields = { orderId: withdrawal.orderId, ticketIds: tickets.map((ticket) => ticket.id) };
  deps.logger.info(fields, admitted ? 'withdrawal refused: a ticket admitted' : 'tickets voided by withdrawal');
  return !admitted;
}
