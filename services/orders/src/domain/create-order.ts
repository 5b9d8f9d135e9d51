import { setTimeout as delay } from 'node:timers/promises';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  unauthorized,
  type AuthUser,
  CollaboratorError,
  upcomingEvent,
} from '@ticketing/platform';
import {
  CONVENIENCE_FEE_CENTS,
  fromCents,
  orderHoldId,
  toCents,
  type CreateOrder,
  type EventView,
} from '@ticketing/proto';
import type { PromoLink } from '../clients/courtesy.ts';
import type { Buyer } from '../clients/identity.ts';
import {
  findByIdempotencyKey,
  findOrder,
  findPendingForEvent,
  insertPendingOrder,
  isUniqueViolation,
  storeCharge,
} from '../data/orders-repository.ts';
import { messages, snapshots, type Order, type OrdersDeps, type PaymentMethod } from './order.ts';
import { paymentWindow } from './payment-window.ts';
import { quotePromo, takePromoUse } from './promo.ts';
import { abandonOrder, withdrawOrder } from './undo-creation.ts';

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
 * Buys one ticket: checks the buyer and the event (and the promotional code's price, if one is given), fits the
 * payment window before the event's start, records the order pending (within the buyer's cap of pending orders),
 * takes the code's use in courtesy, holds a spot in the catalog, creates the charge in payments and announces
 * `order.created`. The order row comes first so a crash at any step leaves something the expiry sweep
 * closes; every refusal on the way undoes what was done (the use and the spot are given back, the order removed or
 * cancelled). A repeated request (same Idempotency-Key, or a pending order for the same event) answers the order
 * already made, without a second use, hold or charge.
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

/** Makes a new order; undefined when a twin request already holds its place (unique index). */
async function placeOrder(
  deps: OrdersDeps,
  buyer: Buyer,
  input: CreateOrder,
  idempotencyKey: string | null,
): Promise<Order | undefined> {
  const event = await upcomingEvent(deps, input.eventId, messages.unavailable);
  const promo = input.promoCode ? await quotePromo(deps, event.id, input.promoCode) : null;
  if (!buyer.cpf) throw new AppError(422, messages.cpfMissing);
  const window = paymentWindow(input.paymentMethod, new Date(), new Date(event.date));
  if (window === 'boleto_too_late') throw new AppError(422, messages.boletoTooLate);
  if (window === 'no_time') throw conflict(messages.noTimeToPay);
  let order: Order | undefined;
  try {
    order = await insertPendingOrder(deps.db, deps.limits.maxPendingOrders, {
      userId: buyer.id,
      eventId: event.id,
      cpf: buyer.cpf,
      paymentMethod: input.paymentMethod,
      amount: orderAmount(event, promo),
      courtesyLinkId: promo?.linkId ?? null,
      expiresAt: window.expiresAt,
      event: { title: event.title, date: new Date(event.date), location: event.location },
      buyer: { name: buyer.name, email: buyer.email },
      idempotencyKey,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  if (!order) throw conflict(messages.tooManyPending(deps.limits.maxPendingOrders));
  if (input.promoCode) await takePromoUse(deps, order, input.promoCode);
  await holdSpot(deps, order);
  const charge = await chargeOrder(deps, order, input.paymentMethod, buyer, window.dueDate);
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
      paymentMethod: input.paymentMethod,
      expiresAt: stored.expiresAt!.toISOString(),
      // How to pay it, for the e-mail: the PIX code (mail draws its QR), the boleto, or the card's payment page.
      invoiceUrl: stored.invoiceUrl,
      pixPayload: stored.pixPayload,
      boletoUrl: stored.boletoUrl,
      boletoLine: stored.boletoLine,
      ...snapshots(stored),
    });
    deps.logger.info(
      { orderId: stored.id, eventId: stored.eventId, paymentMethod: stored.paymentMethod },
      'order created',
    );
    return stored;
  });
}

/** The ticket price (the promotional one when a code gave it) plus the convenience fee, in integer cents. */
function orderAmount(event: EventView, promo: PromoLink | null): string {
  return fromCents(toCents(promo?.overridePrice ?? event.price) + CONVENIENCE_FEE_CENTS);
}

async function holdSpot(deps: OrdersDeps, order: Order): Promise<void> {
  try {
    await deps.catalog.hold(order.eventId, orderHoldId(order.id));
  } catch (error) {
    if (error instanceof CollaboratorError && (error.status === 409 || error.status === 404)) {
      // Refused: no spot was taken, no charge exists, no event was written. The order is withdrawn (its promotional
      // use given back) and simply never was.
      await withdrawOrder(deps, order, 'hold_refused');
      const reason =
        error.status === 404 ? 'not_found' : error.message === messages.soldOut ? 'sold_out' : 'unavailable';
      deps.logger.info({ orderId: order.id, eventId: order.eventId, reason }, 'order refused');
      if (reason === 'not_found') throw notFound(messages.eventNotFound);
      throw conflict(reason === 'sold_out' ? messages.soldOut : messages.unavailable);
    }
    // The catalog may have taken the spot before failing to answer: give it back and close the order.
    await abandonOrder(deps, order, 'hold_failed', error);
    throw new AppError(503, messages.serviceUnavailable);
  }
}

async function chargeOrder(deps: OrdersDeps, order: Order, method: PaymentMethod, buyer: Buyer, dueDate: string) {
  try {
    return await deps.payments.createCharge(order.id, {
      method,
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
    await abandonOrder(deps, order, 'charge_failed', error);
    const said = error instanceof CollaboratorError ? error.message : '';
    const refused = error instanceof CollaboratorError && error.status !== null && error.status < 500;
    if (refused) {
      throw new AppError(422, said.startsWith(messages.paymentError) ? said : `${messages.paymentError}: ${said}`);
    }
    throw new AppError(502, said.startsWith(messages.paymentError) ? said : messages.paymentUnavailable);
  }
}
