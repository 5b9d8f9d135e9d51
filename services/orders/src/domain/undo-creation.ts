import { CollaboratorError } from '@ticketing/platform';
import { orderHoldId } from '@ticketing/proto';
import { deleteUnchargedOrder, transition } from '../data/orders-repository.ts';
import { announceCancelled, type Order, type OrdersDeps } from './order.ts';

/**
 * Removes an order that holds no spot and has no charge, as if it never was. A promotional use it may hold is
 * given back first; when courtesy cannot be told, the order is not deleted silently but closed as cancelled with
 * `order.cancelled`, from which courtesy gives the use back: a use is never kept by an order that does not exist.
 */
export async function withdrawOrder(deps: OrdersDeps, order: Order, reason: string): Promise<void> {
  if (order.courtesyLinkId !== null) {
    try {
      await deps.courtesy.releasePromoUse(order.id);
    } catch (error) {
      deps.logger.warn({ orderId: order.id, err: error }, 'promo use release failed; order.cancelled will release it');
      await closeCancelled(deps, order, reason);
      return;
    }
  }
  await deleteUnchargedOrder(deps.db, order.id);
}

/**
 * Undoes a creation that failed after the hold was asked for: the spot and any promotional use are given back now,
 * and the order is closed as cancelled with `order.cancelled` in the outbox, so the catalog (spot), courtesy (use)
 * and payments (a charge the provider made before the call failed) still clean up if a release here did not go
 * through.
 */
export async function abandonOrder(deps: OrdersDeps, order: Order, reason: string, cause: unknown): Promise<void> {
  const status = cause instanceof CollaboratorError ? cause.status : null;
  deps.logger.warn({ orderId: order.id, reason, status, err: cause }, 'order creation failed');
  await deps.catalog.release(order.eventId, orderHoldId(order.id)).catch((error: unknown) => {
    deps.logger.warn({ orderId: order.id, err: error }, 'hold release failed; order.cancelled will release it');
  });
  if (order.courtesyLinkId !== null) {
    await deps.courtesy.releasePromoUse(order.id).catch((error: unknown) => {
      deps.logger.warn({ orderId: order.id, err: error }, 'promo use release failed; order.cancelled will release it');
    });
  }
  await closeCancelled(deps, order, reason);
}

/**
 * Closes a pending order as cancelled with `order.cancelled`. The idempotency key is freed: a retry with it tries
 * again instead of replaying a failure.
 */
async function closeCancelled(deps: OrdersDeps, order: Order, reason: string): Promise<void> {
  await deps.db.transaction(async (trx) => {
    const cancelled = await transition(trx, order.id, ['pending'], 'cancelled', { idempotency_key: null });
    if (!cancelled) return;
    await announceCancelled(deps.outbox, trx, order, null);
  });
  deps.logger.info({ orderId: order.id, reason }, 'order cancelled');
}
