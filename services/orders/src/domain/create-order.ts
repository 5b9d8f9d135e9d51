import { setTimeout as delay } from 'node:timers/promises';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized, type AuthUser } from '@ticketing/platform';
import {
  CONVENIENCE_FEE_CENTS,
  fromCents,
  orderHoldId,
  toCents,
  type CreateOrder,
  type EventView,
} from '@ticketing/proto';
import type { Buyer } from '../clients/identity.ts';
import { CollaboratorError } from '../clients/http.ts';
import {
  deleteUnchargedOrder,
  findByIdempotencyKey,
  findOrder,
  findPendingForEvent,
  insertOrder,
  isUniqueViolation,
  storeCharge,
  transition,
} from '../data/orders-repository.ts';
import { messages, snapshots, type Order, type OrdersDeps } from './order.ts';
import { paymentWindow } from './payment-window.ts';

/** How the order came to be answered: made now, the first answer to a repeated key, or the buyer's pending one. */
export type CreateOutcome = 'created' | 'replayed' | 'existing';

export interface CreateOrderResult {
  outcome: CreateOutcome;
  order: Order;
}

const IDEMPOTENCY_KEY = /^[\w.:-]{1,100}$/;
/** A twin request still being made is waited for this long before the caller is told to try again. */
const SETTLE_TIMEOUT_MS = 15_000;
const SETTLE_POLL_MS = 50;

/**
 * Buys one ticket: checks the buyer and the event, records the order pending, holds a spot in the catalog, creates
 * the charge in payments and announces `order.created`. The order row comes first so a crash at any step leaves
 * something the expiry sweep closes; every refusal on the way undoes what was done (the spot is given back, the
 * order removed or cancelled). A repeated request (same Idempotency-Key, or a pending order for the same event)
 * answers the order already made, without a second hold or charge.
 */
export async function createOrder(
  deps: OrdersDeps,
  caller: AuthUser,
  input: CreateOrder,
  idempotencyKey?: string,
): Promise<CreateOrderResult> {
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw badRequest(messages.invalidIdempotencyKey);
  }
  const buyer = await verifiedBuyer(deps, caller.id);
  for (let round = 0; round < 3; round++) {
    const earlier = await earlierAnswer(deps, buyer.id, input, idempotencyKey);
    if (earlier) return earlier;
    const order = await placeOrder(deps, buyer, input, idempotencyKey ?? null);
    if (order) return { outcome: 'created', order };
    // A twin request (same key, or same buyer and event) inserted first: the next round answers what it did.
  }
  throw conflict(messages.orderInProgress);
}

async function verifiedBuyer(deps: OrdersDeps, userId: string): Promise<Buyer> {
  let buyer: Buyer | null;
  try {
    buyer = await deps.identity.getUser(userId);
  } catch (error) {
    deps.logger.warn({ err: error, userId }, 'identity unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
  if (!buyer) throw unauthorized(messages.sessionInvalid);
  if (!buyer.emailVerified) throw forbidden(messages.emailNotVerified);
  return buyer;
}

async function earlierAnswer(
  deps: OrdersDeps,
  userId: string,
  input: CreateOrder,
  idempotencyKey: string | undefined,
): Promise<CreateOrderResult | undefined> {
  if (idempotencyKey !== undefined) {
    const first = await findByIdempotencyKey(deps.db, userId, idempotencyKey);
    if (first) {
      if (first.eventId !== input.eventId || first.paymentMethod !== input.paymentMethod) {
        throw new AppError(422, messages.idempotencyKeyReused);
      }
      const settled = await settle(deps, first);
      if (settled) return { outcome: 'replayed', order: settled };
    }
  }
  const pending = await findPendingForEvent(deps.db, userId, input.eventId);
  if (pending) {
    const settled = await settle(deps, pending);
    if (settled) return { outcome: 'existing', order: settled };
  }
  return undefined;
}

/**
 * Waits for an order another request is still making. Answers it once it has its charge; undefined when that
 * request failed (the order was removed, or cancelled without a charge), so this one may try afresh.
 */
async function settle(deps: OrdersDeps, order: Order): Promise<Order | undefined> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let current: Order | undefined = order;
  while (current.status === 'pending' && current.asaasPaymentId === null) {
    if (Date.now() > deadline) throw conflict(messages.orderInProgress);
    await delay(SETTLE_POLL_MS);
    current = await findOrder(deps.db, current.id);
    if (!current) return undefined;
  }
  return current.asaasPaymentId === null ? undefined : current;
}

async function eventOnSale(deps: OrdersDeps, eventId: string): Promise<EventView> {
  let event: EventView | null;
  try {
    event = await deps.catalog.getEvent(eventId);
  } catch (error) {
    deps.logger.warn({ err: error, eventId }, 'catalog unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
  if (!event) throw notFound(messages.eventNotFound);
  if (!event.isActive || Date.parse(event.date) <= Date.now()) throw conflict(messages.unavailable);
  return event;
}

async function ticketPrice(deps: OrdersDeps, event: EventView, promoCode: string | undefined): Promise<string> {
  if (!promoCode) return event.price;
  const price = await deps.promos.promoPrice({ eventId: event.id, code: promoCode });
  if (price === null) throw badRequest(messages.invalidPromo);
  return price;
}

/** Makes a new order; undefined when a twin request already holds its place (unique index). */
async function placeOrder(
  deps: OrdersDeps,
  buyer: Buyer,
  input: CreateOrder,
  idempotencyKey: string | null,
): Promise<Order | undefined> {
  const event = await eventOnSale(deps, input.eventId);
  const price = await ticketPrice(deps, event, input.promoCode);
  if (!buyer.cpf) throw new AppError(422, messages.cpfMissing);
  const window = paymentWindow(input.paymentMethod, new Date());
  let order: Order;
  try {
    order = await insertOrder(deps.db, {
      userId: buyer.id,
      eventId: event.id,
      cpf: buyer.cpf,
      paymentMethod: input.paymentMethod,
      amount: fromCents(toCents(price) + CONVENIENCE_FEE_CENTS),
      expiresAt: window.expiresAt,
      event: { title: event.title, date: new Date(event.date), location: event.location },
      buyer: { name: buyer.name, email: buyer.email },
      idempotencyKey,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  await holdSpot(deps, order);
  const charge = await chargeOrder(deps, order, buyer, window.dueDate);
  return deps.db.transaction(async (trx) => {
    const stored = await storeCharge(trx, order.id, charge);
    // Nothing but this request touches a fresh order before its charge is stored: its window is far from over.
    if (!stored) throw new Error(`order ${order.id} left pending before its charge was stored`);
    await deps.outbox.add(trx, 'order.created', stored.id, {
      orderId: stored.id,
      orderNumber: stored.orderNumber,
      userId: stored.userId,
      eventId: stored.eventId,
      amount: stored.amount,
      paymentMethod: stored.paymentMethod,
      expiresAt: stored.expiresAt!.toISOString(),
      invoiceUrl: stored.invoiceUrl,
      ...snapshots(stored),
    });
    deps.logger.info(
      { orderId: stored.id, eventId: stored.eventId, paymentMethod: stored.paymentMethod },
      'order created',
    );
    return stored;
  });
}

async function holdSpot(deps: OrdersDeps, order: Order): Promise<void> {
  try {
    await deps.catalog.hold(order.eventId, orderHoldId(order.id));
  } catch (error) {
    if (error instanceof CollaboratorError && (error.status === 409 || error.status === 404)) {
      // Refused: no spot was taken, no charge exists, no event was written. The order simply never was.
      await deleteUnchargedOrder(deps.db, order.id);
      const reason =
        error.status === 404 ? 'not_found' : error.message === messages.soldOut ? 'sold_out' : 'unavailable';
      deps.logger.info({ orderId: order.id, eventId: order.eventId, reason }, 'order refused');
      if (reason === 'not_found') throw notFound(messages.eventNotFound);
      throw conflict(reason === 'sold_out' ? messages.soldOut : messages.unavailable);
    }
    // The catalog may have taken the spot before failing to answer: give it back and close the order.
    await abandon(deps, order, 'hold_failed', error);
    throw new AppError(503, messages.serviceUnavailable);
  }
}

async function chargeOrder(deps: OrdersDeps, order: Order, buyer: Buyer, dueDate: string) {
  try {
    return await deps.payments.createCharge(order.id, {
      method: order.paymentMethod,
      amount: order.amount,
      description: `Ingresso ${order.event.title} – pedido ${order.orderNumber}`.slice(0, 500),
      dueDate,
      customer: {
        userId: buyer.id,
        name: buyer.name,
        cpf: order.cpf!,
        email: buyer.email,
        ...(buyer.phone ? { phone: buyer.phone } : {}),
      },
    });
  } catch (error) {
    await abandon(deps, order, 'charge_failed', error);
    const said = error instanceof CollaboratorError ? error.message : '';
    const refused = error instanceof CollaboratorError && error.status !== null && error.status < 500;
    if (refused) {
      throw new AppError(422, said.startsWith(messages.paymentError) ? said : `${messages.paymentError}: ${said}`);
    }
    throw new AppError(502, said.startsWith(messages.paymentError) ? said : messages.paymentUnavailable);
  }
}

/**
 * Undoes a creation that failed after the hold was asked for: the spot is released now, and the order is closed
 * as cancelled with `order.cancelled` in the outbox, so the catalog (spot) and payments (a charge the provider made
 * before the call failed) still clean up if the release here did not go through. The idempotency key is freed:
 * a retry with it tries again instead of replaying a failure.
 */
async function abandon(deps: OrdersDeps, order: Order, reason: string, cause: unknown): Promise<void> {
  const status = cause instanceof CollaboratorError ? cause.status : null;
  deps.logger.warn({ orderId: order.id, reason, status, err: cause }, 'order creation failed');
  await deps.catalog.release(order.eventId, orderHoldId(order.id)).catch((error: unknown) => {
    deps.logger.warn({ orderId: order.id, err: error }, 'hold release failed; order.cancelled will release it');
  });
  await deps.db.transaction(async (trx) => {
    const cancelled = await transition(trx, order.id, ['pending'], 'cancelled', { idempotency_key: null });
    if (!cancelled) return;
    await deps.outbox.add(trx, 'order.cancelled', order.id, {
      orderId: order.id,
      userId: order.userId,
      eventId: order.eventId,
      paymentId: null,
    });
  });
  deps.logger.info({ orderId: order.id, reason }, 'order cancelled');
}
