import { AppError, CollaboratorError, conflict, notFound } from '@ticketing/platform';
import { catalogMessages, orderHoldId, type EventView } from '@ticketing/proto';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { abandonOrder, giveBackPurchase, type Purchase } from './undo-creation.ts';

// The purchase's spot in the catalog: held provisionally before anything is written here, confirmed once the order is.

/**
 * Holds the purchase's spot provisionally (the catalog gives it back by itself unless the order confirms it) and
 * answers the event as the catalog holds it: open for sale, its price and date. Refused (sold out, off sale,
 * cancelled, unknown): nothing was taken but a promotional use, which is given back.
 */
export async function holdSpot(deps: OrdersDeps, purchase: Purchase): Promise<EventView> {
  try {
    const { event } = await deps.catalog.hold(purchase.eventId, orderHoldId(purchase.id), 1, { provisional: true });
    return event;
  } catch (error) {
    if (error instanceof CollaboratorError && (error.status === 409 || error.status === 404)) {
      await giveBackPurchase(deps, purchase, { spot: false });
      const reason = error.status === 404 ? 'not_found' : refusalOf(error.message);
      if (reason === 'sold_out') deps.soldOut.remember(purchase.eventId);
      throw spotRefusal(deps, { orderId: purchase.id, eventId: purchase.eventId }, reason, error.message);
    }
    deps.logger.warn({ orderId: purchase.id, err: error }, 'catalog unavailable');
    // The catalog may have taken the spot before failing to answer.
    await giveBackPurchase(deps, purchase, { spot: true });
    throw new AppError(503, messages.serviceUnavailable);
  }
}

type Refusal = 'sold_out' | 'unavailable' | 'cancelled' | 'not_found';

const refusalOf = (said: string): Refusal =>
  said === catalogMessages.soldOut ? 'sold_out' : said === catalogMessages.cancelled ? 'cancelled' : 'unavailable';

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
  return notFound(said);
}

/** Keeps the recorded order's spot for good; the order is given up when the catalog cannot confirm it. */
export async function confirmSpot(deps: OrdersDeps, order: Order): Promise<void> {
  try {
    await deps.catalog.confirm(order.eventId, orderHoldId(order.id));
  } catch (error) {
    await abandonOrder(deps, order, 'hold_unconfirmed', error);
    throw new AppError(503, messages.serviceUnavailable);
  }
}
