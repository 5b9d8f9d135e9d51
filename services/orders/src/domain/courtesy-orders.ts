import { isForgottenUser, type Knex } from '@ticketing/platform';
import { DEFAULT_TYPE_NAME, erasedPerson, type EventPayload } from '@ticketing/proto';
import { insertCourtesyOrder } from '../data/orders-repository.ts';
import { announcePaid, type OrdersDeps } from './order.ts';

/**
 * A courtesy was redeemed: the attendee's order is recorded already paid, at R$ 0,00 and with no payment method,
 * for the user who redeemed it (so it shows in their profile), and `order.paid` goes in the same transaction, from
 * which tickets issues the ticket to the e-mail typed in the form. No spot is held here: the courtesy link holds its
 * spots in the catalog. One order per attendee, however often the redemption is delivered. A redemption that arrives
 * after its user's account was deleted makes the order without the person.
 */
export async function courtesyRedeemed(
  deps: Pick<OrdersDeps, 'outbox' | 'logger'>,
  trx: Knex.Transaction,
  redemption: EventPayload<'courtesy.redeemed'>,
): Promise<void> {
  const attendee = (await isForgottenUser(trx, redemption.userId))
    ? { ...erasedPerson(redemption.userId), cpf: null }
    : redemption.attendee;
  const order = await insertCourtesyOrder(trx, {
    userId: redemption.userId,
    eventId: redemption.eventId,
    courtesyLinkId: redemption.linkId,
    courtesyAttendeeId: redemption.attendeeId,
    cpf: attendee.cpf,
    event: {
      title: redemption.event.title,
      date: new Date(redemption.event.date),
      location: redemption.event.location,
    },
    buyer: { name: attendee.name, email: attendee.email },
    // The guest's ticket, of the link's type (the link's spots are the event's, of no lot). A link made before links
    // named a type gives the event's one type: the id orders made before types name.
    item: {
      index: 0,
      ticketTypeId: redemption.ticketType?.id ?? redemption.eventId,
      typeName: redemption.ticketType?.name ?? DEFAULT_TYPE_NAME,
      lotName: null,
      price: '0.00',
      requiresDocument: redemption.ticketType?.requiresDocument ?? false,
      holder: { name: attendee.name, email: attendee.email, cpf: attendee.cpf },
    },
  });
  if (!order) {
    deps.logger.info(
      { redemptionId: redemption.redemptionId, courtesyAttendeeId: redemption.attendeeId },
      'courtesy redemption already ordered',
    );
    return;
  }
  await announcePaid(deps.outbox, trx, order);
  deps.logger.info(
    {
      orderId: order.id,
      eventId: order.eventId,
      courtesyLinkId: order.courtesyLinkId,
      courtesyAttendeeId: order.courtesyAttendeeId,
    },
    'courtesy order paid',
  );
}
