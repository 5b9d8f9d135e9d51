import { randomUUID } from 'node:crypto';
import { isForgottenUser, qrCodePng, type Knex } from '@ticketing/platform';
import { erasedPerson, formatCpf, type EventPayload } from '@ticketing/proto';
import { keepEventCopy } from '../data/event-snapshots-repository.ts';
import { insertTicket, isCancelledOrder, lockOrderTicket, type Ticket } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { signTicket, type SigningKey } from './qr-code.ts';

/** The QR image the order shows and the ticket e-mail carries, as a data URL. */
export const toQrPng = (text: string): string => `data:image/png;base64,${qrCodePng(text).toString('base64')}`;

/** The digits of a CPF as the order kept it (`123.456.789-09`); null when it has none that could be one. */
export function cpfDigits(cpf: string | null | undefined): string | null {
  const digits = cpf?.replace(/\D/g, '') ?? '';
  return digits.length === 11 ? digits : null;
}

type Person = { name: string; email: string };
type OrderItem = NonNullable<EventPayload<'order.paid'>['items']>[number];

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Who bought a ticket: kept on it, or (tickets issued before lines) its holder. */
export const buyerOf = (ticket: Ticket): Person => ({
  name: ticket.buyerName ?? ticket.holderName,
  email: ticket.buyerEmail ?? ticket.holderEmail,
});

/**
 * The ticket.issued of a ticket as it stands: its current QR code, the buyer, and (on a ticket of an order's line)
 * its line, holder and type. Tickets of orders before lines keep the event's former shape: the holder as `buyer`.
 */
export function ticketIssuedOf(ticket: Ticket, buyer: Person): EventPayload<'ticket.issued'> {
  const holder = { name: ticket.holderName, email: ticket.holderEmail };
  return {
    ticketId: ticket.id,
    orderId: ticket.orderId,
    orderNumber: ticket.orderNumber,
    userId: ticket.userId,
    eventId: ticket.eventId,
    qrText: ticket.qrText,
    qrCodeData: toQrPng(ticket.qrText),
    ...(ticket.ticketType
      ? {
          itemIndex: ticket.itemIndex,
          holder: { ...holder, cpf: ticket.holderCpf && formatCpf(ticket.holderCpf) },
          ticketType: ticket.ticketType,
          buyer,
        }
      : { buyer: holder }),
    // The event as this service keeps it, which a rename since the order was placed may have changed.
    event: { title: ticket.eventTitle, date: ticket.eventDate.toISOString(), location: ticket.eventLocation },
  };
}

/**
 * The lines to issue: the order's, or (orders before lines) one for the buyer, of no type. The buyer's own line keeps
 * the buyer's CPF when its type asked for none, so the door still finds them by it.
 */
function linesOf(order: EventPayload<'order.paid'>): { item: OrderItem | null; holder: Person; cpf: string | null }[] {
  const buyersCpf = order.buyer.cpf ?? null;
  if (!order.items) return [{ item: null, holder: order.buyer, cpf: buyersCpf }];
  return order.items.map((item) => ({
    item,
    holder: item.holder,
    cpf: item.holder.cpf ?? (sameEmail(item.holder.email, order.buyer.email) ? buyersCpf : null),
  }));
}

/** What every line of one order.paid shares when it is issued. */
interface Issuing {
  order: EventPayload<'order.paid'>;
  /** The buyer as the tickets name them (nobody, for a deleted account). */
  buyer: Person;
  forgotten: boolean;
  cancelled: boolean;
  key: SigningKey;
}

/**
 * Issues the tickets of a paid order, one per line with its holder, type and own signed QR code, in the transaction
 * that marks the event handled: the tickets and their ticket.issued events commit together. A line that already has
 * its ticket (a redelivery, or the same order paid again under a new event id) issues nothing. An order refunded
 * before this arrived gets its tickets cancelled from the start, and nothing is sent. For a deleted account, its own
 * tickets name nobody (those it bought for others keep their holders).
 */
export async function issueTickets(
  deps: Pick<TicketsDeps, 'outbox' | 'logger' | 'keys'>,
  trx: Knex.Transaction,
  order: EventPayload<'order.paid'>,
): Promise<Ticket[]> {
  await lockOrderTicket(trx, order.orderId);
  const cancelled = await isCancelledOrder(trx, order.orderId);
  const forgotten = await isForgottenUser(trx, order.userId);
  const buyer = forgotten ? erasedPerson(order.userId) : { name: order.buyer.name, email: order.buyer.email };
  const key = await deps.keys.signing();
  await keepEventCopy(trx, order.eventId, { ...order.event, date: new Date(order.event.date) });
  const issued: Ticket[] = [];
  for (const line of linesOf(order)) {
    const ticket = await issueLine(deps, trx, { order, buyer, forgotten, cancelled, key }, line);
    if (ticket) issued.push(ticket);
  }
  return issued;
}

/** Issues one line's ticket and announces it; undefined when the line has its ticket already. */
async function issueLine(
  deps: Pick<TicketsDeps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  { order, buyer, forgotten, cancelled, key }: Issuing,
  { item, holder, cpf }: ReturnType<typeof linesOf>[number],
): Promise<Ticket | undefined> {
  const erased = forgotten && sameEmail(holder.email, order.buyer.email);
  const named = erased ? erasedPerson(order.userId) : holder;
  const id = randomUUID();
  const ticket = await insertTicket(trx, {
    id,
    orderId: order.orderId,
    orderNumber: order.orderNumber,
    itemIndex: item?.index ?? 0,
    eventId: order.eventId,
    userId: order.userId,
    buyerName: item && buyer.name,
    buyerEmail: item && buyer.email,
    ticketType: item && { id: item.ticketTypeId, name: item.typeName, requiresDocument: item.requiresDocument },
    holderName: named.name,
    holderEmail: named.email,
    holderCpf: erased ? null : cpfDigits(cpf),
    paymentMethod: order.paymentMethod ?? null,
    qrText: signTicket({ ticketId: id, eventId: order.eventId, version: 1 }, key),
    status: cancelled ? 'cancelled' : 'valid',
  });
  if (!ticket) {
    deps.logger.info({ orderId: order.orderId, itemIndex: item?.index ?? 0 }, 'ticket already issued');
    return undefined;
  }
  if (cancelled) {
    deps.logger.info({ ticketId: ticket.id, orderId: ticket.orderId }, 'ticket issued cancelled: order refunded');
    return ticket;
  }
  await deps.outbox.add(trx, 'ticket.issued', ticket.id, ticketIssuedOf(ticket, buyer));
  const { itemIndex, eventId } = ticket;
  deps.logger.info({ ticketId: id, orderId: order.orderId, eventId, itemIndex, kid: key.kid }, 'ticket issued');
  return ticket;
}
