import { randomUUID } from 'node:crypto';
import { isForgottenUser, qrCodePng, type Knex } from '@ticketing/platform';
import { erasedPerson, type EventPayload } from '@ticketing/proto';
import { keepEventCopy } from '../data/event-snapshots-repository.ts';
import { insertTicket, isCancelledOrder, lockOrderTicket, type Ticket } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { signTicket } from './qr-code.ts';

/** The QR image the order shows and the ticket e-mail carries, as a data URL. */
export const toQrPng = (text: string): string => `data:image/png;base64,${qrCodePng(text).toString('base64')}`;

/** The digits of a CPF as the order kept it (`123.456.789-09`); null when it has none that could be one. */
function cpfDigits(cpf: string | null | undefined): string | null {
  const digits = cpf?.replace(/\D/g, '') ?? '';
  return digits.length === 11 ? digits : null;
}

/**
 * Issues the one ticket of a paid order, in the transaction that marks the event handled: the ticket, its
 * signed QR text and the ticket.issued event commit together. An order that already has its ticket (a
 * redelivery, or the same order paid again under a new event id) issues nothing. An order refunded before this
 * arrived gets its ticket cancelled from the start, and nothing is sent. A ticket for a deleted account names nobody.
 */
export async function issueTicket(
  deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>,
  trx: Knex.Transaction,
  order: EventPayload<'order.paid'>,
): Promise<Ticket | undefined> {
  await lockOrderTicket(trx, order.orderId);
  const cancelled = await isCancelledOrder(trx, order.orderId);
  const forgotten = await isForgottenUser(trx, order.userId);
  const holder = forgotten ? erasedPerson(order.userId) : { name: order.buyer.name, email: order.buyer.email };
  const id = randomUUID();
  const key = await deps.keys.signing();
  const qrText = signTicket({ ticketId: id, eventId: order.eventId, version: 1 }, key);
  await keepEventCopy(trx, order.eventId, { ...order.event, date: new Date(order.event.date) });
  const ticket = await insertTicket(trx, {
    id,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    eventId: order.eventId,
    userId: order.userId,
    holderName: holder.name,
    holderEmail: holder.email,
    holderCpf: forgotten ? null : cpfDigits(order.buyer.cpf),
    paymentMethod: order.paymentMethod ?? null,
    qrText,
    status: cancelled ? 'cancelled' : 'valid',
  });
  if (!ticket) {
    deps.logger.info({ orderId: order.orderId }, 'ticket already issued');
    return undefined;
  }
  if (cancelled) {
    deps.logger.info({ ticketId: ticket.id, orderId: ticket.orderId }, 'ticket issued cancelled: order refunded');
    return ticket;
  }
  await deps.outbox.add(trx, 'ticket.issued', ticket.id, {
    ticketId: ticket.id,
    orderId: ticket.orderId,
    orderNumber: ticket.orderNumber,
    userId: ticket.userId,
    eventId: ticket.eventId,
    qrText,
    qrCodeData: toQrPng(qrText),
    buyer: holder,
    // The event as this service keeps it, which a rename since the order was placed may have changed.
    event: { title: ticket.eventTitle, date: ticket.eventDate.toISOString(), location: ticket.eventLocation },
  });
  deps.logger.info(
    { ticketId: ticket.id, orderId: ticket.orderId, eventId: ticket.eventId, kid: key.kid },
    'ticket issued',
  );
  return ticket;
}
