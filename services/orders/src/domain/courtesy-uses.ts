import { AppError, badRequest, conflict, CollaboratorError } from '@ticketing/platform';
import { messages, type OrdersDeps } from './order.ts';
import { giveBackPurchase, type Purchase, type UseKind } from './undo-creation.ts';

/** Courtesy's refusals of a use, as the order's log names them. */
const REFUSALS: Record<number, string> = { 404: 'invalid', 409: 'used_up', 422: 'refused' };

/**
 * Takes the purchase's use (of a promotional link or a coupon) in courtesy, before its spots are held. Refused (the
 * code names nothing valid: 400 `invalid`; every use is taken: 409; a coupon not valid for this purchase: 422, both
 * in courtesy's words): no use was taken, nothing was written, and the buyer is told why. No answer: the use may
 * have been taken, so it is given back (see giveBackPurchase) and the buyer is asked to try again.
 */
export async function takeUse<T>(
  deps: OrdersDeps,
  purchase: Purchase,
  use: { kind: UseKind; invalid: string; take: () => Promise<T> },
): Promise<T> {
  try {
    return await use.take();
  } catch (error) {
    const refusal = error instanceof CollaboratorError && error.status !== null ? REFUSALS[error.status] : undefined;
    if (refusal) {
      const reason = `${use.kind}_${refusal}`;
      deps.logger.info({ orderId: purchase.id, eventId: purchase.eventId, reason }, 'order refused');
      const said = (error as CollaboratorError).message;
      if (refusal === 'invalid') throw badRequest(use.invalid);
      throw refusal === 'used_up' ? conflict(said) : new AppError(422, said);
    }
    const status = error instanceof CollaboratorError ? error.status : null;
    const reason = `${use.kind}_failed`;
    deps.logger.warn({ orderId: purchase.id, reason, status, err: error }, 'order creation failed');
    await giveBackPurchase(deps, purchase, { spot: false });
    throw new AppError(503, messages.serviceUnavailable);
  }
}
