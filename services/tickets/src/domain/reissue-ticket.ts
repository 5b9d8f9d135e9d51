import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { lockOrderLine, lockOrderTicket, reissueTicket, type Ticket } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { buyerOf, cpfDigits, ticketIssuedOf } from './issue-ticket.ts';
import { signTicket } from './qr-code.ts';

/** The highest QR version a ticket may reach (one byte of the signed payload). */
const LAST_VERSION = 255;

/**
 * The buyer handed a ticket of the order to a new holder: it is reissued to them under the next QR version, so the
 * QR code before is refused at the door as outdated, and ticket.issued goes out again (same ticket, new QR code): mail
 * sends the new holder their ticket and orders shows the new QR code. A cancelled ticket, or one not issued yet, stays
 * as it is.
 */
export async function holderChanged(
  deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>,
  trx: Knex.Transaction,
  change: EventPayload<'order.holder-changed'>,
): Promise<Ticket | undefined> {
  const { orderId, item } = change;
  const fields = { orderId, itemIndex: item.index };
  await lockOrderTicket(trx, orderId);
  const ticket = await lockOrderLine(trx, orderId, item.index);
  if (!ticket || ticket.status === 'cancelled') {
    deps.logger.info({ ...fields, ticketId: ticket?.id ?? null }, 'holder change ignored: no valid ticket');
    return undefined;
  }
  if (ticket.version >= LAST_VERSION) {
    deps.logger.warn({ ...fields, ticketId: ticket.id }, 'holder change ignored: ticket reissued too often');
    return undefined;
  }
  // Read before the holder changes: tickets issued before lines were held by their buyer.
  const buyer = buyerOf(ticket);
  const version = ticket.version + 1;
  const key = await deps.keys.signing();
  const reissued = await reissueTicket(trx, ticket.id, {
    holder: { name: item.holder.name, email: item.holder.email, cpf: cpfDigits(item.holder.cpf) },
    buyer,
    ticketType: { id: item.ticketTypeId, name: item.typeName, requiresDocument: item.requiresDocument },
    version,
    qrText: signTicket({ ticketId: ticket.id, eventId: ticket.eventId, version }, key),
  });
  await deps.outbox.add(trx, 'ticket.issued', reissued.id, ticketIssuedOf(reissued, buyer));
  deps.logger.info({ ...fields, ticketId: reissued.id, version, kid: key.kid }, 'ticket reissued to a new holder');
  return reissued;
}
