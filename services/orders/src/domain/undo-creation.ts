import { CollaboratorError } from '@ticketing/platform';
import { orderHoldId } from '@ticketing/proto';
import { transition } from '../data/orders-repository.ts';
import type { CourtesyClient } from '../clients/courtesy.ts';
import { announceCancelled, type Order, type OrdersDeps } from './order.ts';

/** A purchase before its order is recorded: the id its uses (promotional or coupon) and spots are taken under. */
export interface Purchase {
  id: string;
  userId: string;
  eventId: string;
  /** The promotional link whose use it takes, if any. */
  courtesyLinkId: string | null;
  /** The coupon whose use it takes, if any. */
  couponCode: string | null;
}

/** What courtesy keeps for an order, taken and given back the same way: a promotional link's use, a coupon's use. */
export type UseKind = 'promo' | 'coupon';

const RELEASE: Record<UseKind, (courtesy: CourtesyClient, orderId: string) => Promise<boolean>> = {
  promo: (courtesy, orderId) => courtesy.releasePromoUse(orderId),
  coupon: (courtesy, orderId) => courtesy.releaseCouponUse(orderId),
};

/** The uses an order (or a purchase) takes in courtesy. */
export const usesOf = (taken: { courtesyLinkId: string | null; couponCode: string | null }): UseKind[] => [
  ...(taken.courtesyLinkId !== null ? (['promo'] as const) : []),
  ...(taken.couponCode !== null ? (['coupon'] as const) : []),
];

/** Gives the order's uses back now; false when courtesy could not be told of one (`order.cancelled` will). */
async function releaseUses(deps: OrdersDeps, orderId: string, uses: UseKind[]): Promise<boolean> {
  let released = true;
  for (const kind of uses) {
    await RELEASE[kind](deps.courtesy, orderId).catch((error: unknown) => {
      deps.logger.warn({ orderId, kind, err: error }, 'use release failed; order.cancelled will release it');
      released = false;
    });
  }
  return released;
}

/**
 * Gives back what a purchase took before its order was recorded, so that it simply never was: its spot (held
 * provisionally: it would lapse by itself) and its promotional or coupon use. A use courtesy cannot be told about now
 * is given back through `order.cancelled`, from which courtesy gives uses back: a use is never kept by an order that
 * does not exist.
 */
export async function giveBackPurchase(deps: OrdersDeps, purchase: Purchase, { spot }: { spot: boolean }) {
  if (spot) {
    await deps.catalog.release(purchase.eventId, orderHoldId(purchase.id)).catch((error: unknown) => {
      deps.logger.warn({ orderId: purchase.id, err: error }, 'hold release failed; the provisional hold will lapse');
    });
  }
  if (!(await releaseUses(deps, purchase.id, usesOf(purchase)))) {
    await deps.db.transaction((trx) => announceCancelled(deps.outbox, trx, { ...purchase, asaasPaymentId: null }));
  }
}

/**
 * Undoes a creation that failed after the order was recorded: the spot and any promotional or coupon use are given back now,
 * and the order is closed as cancelled with `order.cancelled` in the outbox, so the catalog (spot), courtesy (use)
 * and payments (a charge the provider made before the call failed) still clean up if a release here did not go
 * through. The idempotency key is freed: a retry with it tries again instead of replaying a failure.
 */
export async function abandonOrder(deps: OrdersDeps, order: Order, reason: string, cause: unknown): Promise<void> {
  const status = cause instanceof CollaboratorError ? cause.status : null;
  deps.logger.warn({ orderId: order.id, reason, status, err: cause }, 'order creation failed');
  await deps.catalog.release(order.eventId, orderHoldId(order.id)).catch((error: unknown) => {
    deps.logger.warn({ orderId: order.id, err: error }, 'hold release failed; order.cancelled will release it');
  });
  await releaseUses(deps, order.id, usesOf({ ...order, couponCode: order.coupon?.code ?? null }));
  await deps.db.transaction(async (trx) => {
    const cancelled = await transition(trx, order.id, ['pending'], 'cancelled', { idempotency_key: null });
    if (!cancelled) return;
    await announceCancelled(deps.outbox, trx, order, null);
  });
  deps.logger.info({ orderId: order.id, reason }, 'order cancelled');
}
