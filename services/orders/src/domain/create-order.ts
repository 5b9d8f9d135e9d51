import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  unauthorized,
  type AuthUser,
  CollaboratorError,
} from '@ticketing/platform';
import {
  CONVENIENCE_FEE_CENTS,
  fromCents,
  toCents,
  type CreateOrder,
  type EventView,
  type PromoQuote,
} from '@ticketing/proto';
import type { Buyer } from '../clients/identity.ts';
import {
  findEarlierOrders,
  findOrder,
  insertPendingOrder,
  isUniqueViolation,
  storeCharge,
  type StoredCharge,
} from '../data/orders-repository.ts';
import { messages, snapshots, type Order, type OrdersDeps, type PaymentMethod } from './order.ts';
import { paymentWindow, type PaymentWindow } from './payment-window.ts';
import { quotePromo, takePromoUse } from './promo.ts';
import { confirmSpot, holdSpot, spotRefusal } from './spots.ts';
import { abandonOrder, giveBackPurchase, type Purchase } from './undo-creation.ts';

/** How the order came to be answered: made now, the first answer to a repeated key, or the buyer's pending one. */
export type CreateOutcome = 'created' | 'replayed' | 'existing';

export interface CreateOrderResult {
  outcome: CreateOutcome;
  order: Order;
}

const IDEMPOTENCY_KEY = /^[\w.:-]{1,100}$/;
/** A twin request still being made elsewhere is waited for this long before the caller is told to try again. */
const SETTLE_TIMEOUT_MS = 15_000;
const SETTLE_POLL_MS = { first: 50, max: 500 };

/**
 * Buys one ticket. A repeated request (same Idempotency-Key, or a pending order for the same event) answers the
 * order already made, without a second use, hold or charge; an event the catalog just said is sold out is refused at
 * once. Otherwise: takes the promotional code's use (if one is given) and a provisional spot in the catalog under the
 * new order's id, so a refusal (sold out, code used up) is answered without writing anything here; checks the buyer;
 * then records the order pending (within the buyer's cap of pending orders) and confirms its spot, creates the charge
 * in payments and announces `order.created`. From the moment the order is recorded, a crash at any step leaves
 * something the expiry sweep closes (before it, the provisional spot lapses by itself); every refusal on the way
 * gives back what was taken.
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
  return oneAtATime(deps.placements, `${caller.id}:${input.eventId}`, async () => {
    let buyer: Promise<Buyer> | undefined;
    const findBuyer = () => (buyer ??= verifiedBuyer(deps, caller.id));
    for (let round = 0; round < 3; round++) {
      const earlier = await earlierAnswer(deps, caller.id, input, idempotencyKey);
      if (earlier) return earlier;
      if (deps.soldOut.has(input.eventId)) throw spotRefusal(deps, { eventId: input.eventId }, 'sold_out');
      const order = await placeOrder(deps, caller.id, findBuyer, input, idempotencyKey ?? null);
      if (order) return { outcome: 'created', order };
      // A twin request (same key, or same buyer and event) recorded first: the next round answers what it did.
    }
    throw conflict(messages.orderInProgress);
  });
}

/**
 * Runs `work` once no other work of `key` is running in this process: a double click reaching this replica waits
 * for the first purchase instead of holding a second spot that would then be given back.
 */
async function oneAtATime<T>(running: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  for (let first = running.get(key); first; first = running.get(key)) await first.catch(() => {});
  const mine = work();
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
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
  const { keyed, pending } = await findEarlierOrders(deps.db, userId, { eventId: input.eventId, idempotencyKey });
  if (keyed) {
    if (keyed.eventId !== input.eventId || keyed.paymentMethod !== input.paymentMethod) {
      throw new AppError(422, messages.idempotencyKeyReused);
    }
    const settled = await settle(deps, keyed);
    if (settled) return { outcome: 'replayed', order: settled };
  }
  if (pending && pending.id !== keyed?.id) {
    const settled = await settle(deps, pending);
    if (settled) return { outcome: 'existing', order: settled };
  }
  return undefined;
}

/**
 * Waits for an order another request (on another replica) is still making. Answers it once it has its charge;
 * undefined when that request failed (the order was cancelled without a charge), so this one may try afresh. An
 * order recorded longer ago than any purchase can take was left by a process that died midway: it is given up (its
 * spot and use back, `order.cancelled` for a charge made meanwhile) and this request tries afresh.
 */
async function settle(deps: OrdersDeps, order: Order): Promise<Order | undefined> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let current: Order | undefined = order;
  for (let wait = SETTLE_POLL_MS.first; current.status === 'pending' && current.asaasPaymentId === null;) {
    if (Date.now() - current.createdAt.getTime() > deps.limits.creationMs) {
      await abandonOrder(deps, current, 'creation_interrupted', undefined);
      return undefined;
    }
    if (Date.now() > deadline) throw conflict(messages.orderInProgress);
    await delay(wait);
    wait = Math.min(SETTLE_POLL_MS.max, wait * 2);
    current = await findOrder(deps.db, current.id);
    if (!current) return undefined;
  }
  return current.asaasPaymentId === null ? undefined : current;
}

/**
 * Makes a new order; undefined when a twin request recorded its order first (unique index). The spot is held before
 * the buyer is asked of identity: through a rush, most buyers are refused a spot, and a refusal costs no more.
 */
async function placeOrder(
  deps: OrdersDeps,
  userId: string,
  findBuyer: () => Promise<Buyer>,
  input: CreateOrder,
  idempotencyKey: string | null,
): Promise<Order | undefined> {
  const promo = input.promoCode ? await quotePromo(deps, input.eventId, input.promoCode) : null;
  const purchase: Purchase = {
    id: randomUUID(),
    userId,
    eventId: input.eventId,
    courtesyLinkId: promo?.linkId ?? null,
  };
  if (input.promoCode) await takePromoUse(deps, purchase, input.promoCode);
  const event = await holdSpot(deps, purchase);
  const buyer = await findBuyer().catch(async (error: unknown) => {
    await giveBackPurchase(deps, purchase, { spot: true });
    throw error;
  });
  const recorded = await recordOrder(deps, purchase, { buyer, event, promo, input, idempotencyKey });
  if (!recorded) return undefined;
  const { order, window } = recorded;
  await confirmSpot(deps, order);
  const charge = await chargeOrder(deps, order, input.paymentMethod, buyer, window.dueDate);
  const stored = await storeCharge(deps.db, order.id, charge, announcement(deps, withCharge(order, charge)));
  // Nothing but this request touches a fresh order before its charge is stored: its window is far from over.
  if (!stored) throw new Error(`order ${order.id} left pending before its charge was stored`);
  deps.outbox.written();
  deps.logger.info(
    { orderId: stored.id, eventId: stored.eventId, paymentMethod: stored.paymentMethod },
    'order created',
  );
  return stored;
}

/** The order as it is once its charge is stored. */
const withCharge = (order: Order, charge: StoredCharge): Order => ({
  ...order,
  asaasPaymentId: charge.paymentId,
  pixQrCode: charge.pixQrCode,
  pixPayload: charge.pixPayload,
  boletoUrl: charge.boletoUrl,
  boletoLine: charge.boletoLine,
  invoiceUrl: charge.invoiceUrl,
});

/** `order.created`, written with the charge. */
function announcement(deps: OrdersDeps, order: Order) {
  const [envelope] = deps.outbox.envelopes([
    {
      type: 'order.created',
      key: order.id,
      payload: {
        orderId: order.id,
        orderNumber: order.orderNumber,
        userId: order.userId,
        eventId: order.eventId,
        amount: order.amount,
        paymentMethod: order.paymentMethod!,
        expiresAt: order.expiresAt!.toISOString(),
        // How to pay it, for the e-mail: the PIX code (mail draws its QR), the boleto, or the card's payment page.
        invoiceUrl: order.invoiceUrl,
        pixPayload: order.pixPayload,
        boletoUrl: order.boletoUrl,
        boletoLine: order.boletoLine,
        ...snapshots(order),
      },
    },
  ]);
  return envelope!;
}

/**
 * Records the order pending, with its payment window before the event's start, within the buyer's cap of pending
 * orders. Undefined when a twin request recorded its order first; a refusal gives back what the purchase took.
 */
async function recordOrder(
  deps: OrdersDeps,
  purchase: Purchase,
  details: {
    buyer: Buyer;
    event: EventView;
    promo: PromoQuote | null;
    input: CreateOrder;
    idempotencyKey: string | null;
  },
): Promise<{ order: Order; window: PaymentWindow } | undefined> {
  const { buyer, event, promo, input, idempotencyKey } = details;
  try {
    if (!buyer.cpf) throw new AppError(422, messages.cpfMissing);
    const window = paymentWindow(input.paymentMethod, new Date(), new Date(event.date));
    if (window === 'boleto_too_late') throw new AppError(422, messages.boletoTooLate);
    if (window === 'no_time') throw conflict(messages.noTimeToPay);
    const order = await insertPendingOrder(deps.db, deps.limits.maxPendingOrders, {
      ...purchase,
      cpf: buyer.cpf!,
      paymentMethod: input.paymentMethod,
      amount: orderAmount(event, promo),
      expiresAt: window.expiresAt,
      event: { title: event.title, date: new Date(event.date), location: event.location },
      buyer: { name: buyer.name, email: buyer.email },
      idempotencyKey,
    });
    if (!order) throw conflict(messages.tooManyPending(deps.limits.maxPendingOrders));
    return { order, window };
  } catch (error) {
    await giveBackPurchase(deps, purchase, { spot: true });
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** The ticket price (the promotional one when a code gave it) plus the convenience fee, in integer cents. */
function orderAmount(event: EventView, promo: PromoQuote | null): string {
  return fromCents(toCents(promo?.overridePrice ?? event.price) + CONVENIENCE_FEE_CENTS);
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
    const refused = error instanceof CollaboratorError && error.refused;
    if (refused) {
      throw new AppError(422, said.startsWith(messages.paymentError) ? said : `${messages.paymentError}: ${said}`);
    }
    throw new AppError(502, said.startsWith(messages.paymentError) ? said : messages.paymentUnavailable);
  }
}
