import { AppError, badRequest, conflict, CollaboratorError } from '@ticketing/platform';
import type { PromoLink } from '../clients/courtesy.ts';
import { deleteUnchargedOrder } from '../data/orders-repository.ts';
import { messages, type Order, type OrdersDeps } from './order.ts';
import { withdrawOrder } from './undo-creation.ts';

/**
 * The promotional link a code names for the event, with the ticket price it gives. 400 when the code names none
 * with uses left; 503 when courtesy cannot say (nothing is written before this).
 */
export async function quotePromo(deps: OrdersDeps, eventId: string, code: string): Promise<PromoLink> {
  let link: PromoLink | null;
  try {
    link = await deps.courtesy.findPromoLink(eventId, code);
  } catch (error) {
    deps.logger.warn({ err: error, eventId }, 'courtesy unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
  if (!link) throw badRequest(messages.invalidPromo);
  return link;
}

/**
 * Takes the order's use of its promotional link, before its spot is held. Refused (the link is no longer valid, or
 * every use is taken): no use was taken, the order is removed and the buyer told why. No answer: the use may have
 * been taken, so it is given back with the order (see withdrawOrder) and the buyer is asked to try again.
 */
export async function takePromoUse(deps: OrdersDeps, order: Order, code: string): Promise<void> {
  try {
    await deps.courtesy.takePromoUse(order.id, { code, eventId: order.eventId });
  } catch (error) {
    if (error instanceof CollaboratorError && (error.status === 404 || error.status === 409)) {
      await deleteUnchargedOrder(deps.db, order.id);
      const reason = error.status === 404 ? 'promo_invalid' : 'promo_used_up';
      deps.logger.info({ orderId: order.id, eventId: order.eventId, reason }, 'order refused');
      throw error.status === 404 ? badRequest(messages.invalidPromo) : conflict(error.message);
    }
    const status = error instanceof CollaboratorError ? error.status : null;
    deps.logger.warn({ orderId: order.id, reason: 'promo_failed', status, err: error }, 'order creation failed');
    await withdrawOrder(deps, order, 'promo_failed');
    throw new AppError(503, messages.serviceUnavailable);
  }
}
