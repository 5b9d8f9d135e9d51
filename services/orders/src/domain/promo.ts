import { AppError, badRequest } from '@ticketing/platform';
import type { PromoQuote } from '@ticketing/proto';
import { messages, type OrdersDeps } from './order.ts';
import { takeUse } from './courtesy-uses.ts';
import type { Purchase } from './undo-creation.ts';

/**
 * The promotional link a code names for the event, with the ticket price it gives. 400 when the code names none
 * with uses left; 503 when courtesy cannot say (nothing is written before this).
 */
export async function quotePromo(deps: OrdersDeps, eventId: string, code: string): Promise<PromoQuote> {
  let link: PromoQuote | null;
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
 * A link that names a type sells that type alone: an order of another is refused (422 naming the link's type), before
 * anything is taken. A link made before links named one sells any type, as it did.
 */
export function checkPromoType(promo: PromoQuote, asked: { ticketTypeId: string }[]): void {
  const type = promo.ticketType;
  if (type && asked.some((item) => item.ticketTypeId !== type.id)) {
    throw new AppError(422, messages.promoOtherType(type.name));
  }
}

/** Takes the purchase's use of its promotional link, before its spot is held (see `takeUse`). */
export async function takePromoUse(deps: OrdersDeps, purchase: Purchase, code: string): Promise<void> {
  await takeUse(deps, purchase, {
    kind: 'promo',
    invalid: messages.invalidPromo,
    take: () => deps.courtesy.takePromoUse(purchase.id, { code, eventId: purchase.eventId }),
  });
}
