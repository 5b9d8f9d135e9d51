import { AppError, CollaboratorError, conflict, notFound } from '@ticketing/platform';
import { catalogMessages, orderHoldId, ticketTypeMessages, type EventView, type HoldLine } from '@ticketing/proto';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { abandonOrder, giveBackPurchase, type Purchase } from './undo-creation.ts';

// The purchase's spots in the catalog: held provisionally before anything is written here, confirmed once the order is.

/** What a hold took: the event as the catalog holds it, and one priced line per ticket asked for, in their order. */
export interface HeldSpots {
  event: EventView;
  lines: HoldLine[];
}

/**
 * Holds one spot per ticket asked for, provisionally (the catalog gives them back by itself unless the order
 * confirms them), and answers the event (open for sale, its date) and each ticket's type, lot and price. Refused
 * (sold out, a type sold out or off sale, cancelled, unknown): nothing was taken but a promotional use, which is
 * given back.
 */
export async function holdSpots(
  deps: OrdersDeps,
  purchase: Purchase,
  asked: { ticketTypeId: string }[],
  { includeHidden }: { includeHidden: boolean },
): Promise<HeldSpots> {
  let held: { event: EventView; lines: HoldLine[] };
  try {
    const items = asked.map(({ ticketTypeId }) => ({ ticketTypeId }));
    held = await deps.catalog.hold(purchase.eventId, orderHoldId(purchase.id), asked.length, {
      provisional: true,
      items,
      includeHidden,
    });
  } catch (error) {
    if (error instanceof CollaboratorError && (error.status === 400 || error.status === 422)) {
      // Items the catalog does not take (a type of another event, a hidden one without a code): in its words.
      await giveBackPurchase(deps, purchase, { spot: false });
      throw new AppError(422, error.message);
    }
    if (error instanceof CollaboratorError && (error.status === 409 || error.status === 404)) {
      await giveBackPurchase(deps, purchase, { spot: false });
      const reason = error.status === 404 ? 'not_found' : refusalOf(error.message);
      if (reason === 'sold_out') deps.soldOut.remember(purchase.eventId, true);
      throw spotRefusal(deps, { orderId: purchase.id, eventId: purchase.eventId }, reason, error.message);
    }
    deps.logger.warn({ orderId: purchase.id, err: error }, 'catalog unavailable');
    // The catalog may have taken the spots before failing to answer.
    await giveBackPurchase(deps, purchase, { spot: true });
    throw new AppError(503, messages.serviceUnavailable);
  }
  // The catalog answers one priced line per ticket asked for, in their order.
  return { event: held.event, lines: held.lines };
}

type Refusal = 'sold_out' | 'unavailable' | 'cancelled' | 'not_found' | 'type_refused';

/** A type's refusals: sold out, off sale, not the event's (told in the catalog's words). */
const TYPE_REFUSALS = [
  ticketTypeMessages.typeSoldOut('\u0000'),
  ticketTypeMessages.notOnSale('\u0000'),
  ticketTypeMessages.unknownType,
].map((text) => new RegExp(`^${text.replaceAll('.', '\\.').replaceAll('\u0000', '.+')}$`));

/** The event's own refusals are told in orders' words, a type's in the catalog's. */
const refusalOf = (said: string): Refusal => {
  if (said === catalogMessages.soldOut) return 'sold_out';
  if (said === catalogMessages.cancelled) return 'cancelled';
  return TYPE_REFUSALS.some((pattern) => pattern.test(said)) ? 'type_refused' : 'unavailable';
};

/** The buyer's answer to an event that gives no spot, logged; unknown or cancelled events in the catalog's words. */
export function spotRefusal(
  deps: OrdersDeps,
  purchase: { orderId?: string; eventId: string },
  reason: Refusal,
  said: string = catalogMessages.eventNotFound,
): AppError {
  deps.logger.info({ ...purchase, reason }, 'order refused');
  if (reason === 'sold_out') return conflict(messages.soldOut);
  if (reason === 'unavailable') return conflict(messages.unavailable);
  if (reason === 'type_refused') return conflict(said);
  return notFound(said);
}

/** Keeps the recorded order's spots for good; the order is given up when the catalog cannot confirm them. */
export async function confirmSpots(deps: OrdersDeps, order: Order): Promise<void> {
  try {
    await deps.catalog.confirm(order.eventId, orderHoldId(order.id));
  } catch (error) {
    await abandonOrder(deps, order, 'hold_unconfirmed', error);
    throw new AppError(503, messages.serviceUnavailable);
  }
}
