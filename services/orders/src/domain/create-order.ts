import { randomUUID } from 'node:crypto';
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
  allowedInstallments,
  couponDiscountCents,
  couponMessages,
  fromCents,
  installmentMessages,
  toCents,
  type ChargeRequest,
  type ChargeView,
  type CouponQuote,
  type CreateOrder,
  type EventView,
  type PromoQuote,
} from '@ticketing/proto';
import type { Buyer } from '../clients/identity.ts';
import { findEarlierOrders, insertPendingOrder, isUniqueViolation, storeCharge } from '../data/orders-repository.ts';
import { orderAmount, orderItems, saleSummary } from './order-items.ts';
import { messages, snapshots, type Order, type OrderItem, type OrdersDeps } from './order.ts';
import { readOrder, type OrderRead } from './order-reads.ts';
import { paymentWindow, type PaymentWindow } from './payment-window.ts';
import { takeCouponUse } from './coupon.ts';
import { checkPromoType, quotePromo, takePromoUse } from './promo.ts';
import { confirmSpots, holdSpots, spotRefusal, type HeldSpots } from './spots.ts';
import { abandonOrder, giveBackPurchase, type Purchase } from './undo-creation.ts';

/** How the order came to be answered: made now, the first answer to a repeated key, or the buyer's pending one. */
export type CreateOutcome = 'created' | 'replayed' | 'existing';

export interface CreateOrderResult {
  outcome: CreateOutcome;
  /** The order with its lines; `payment` null only when payments could not say how to pay an order made before. */
  read: OrderRead;
}

const IDEMPOTENCY_KEY = /^[\w.:-]{1,100}$/;

/**
 * Buys tickets of one event: `items` (when absent, one for the buyer of the promotional link's type or the event's
 * first type). A repeated request
 * (same Idempotency-Key, or a pending order for the same event) answers the order already made, without a second
 * use, hold or charge; an event the catalog just said is sold out is refused at once. Otherwise: takes the
 * promotional code's or the coupon's use (if one is given) in courtesy and the spots, priced line by line, in the
 * catalog under the new order's id, so a refusal (sold out, code used up) is answered without writing anything here;
 * checks the buyer (their CPF, unless the order is made out to a company) and the installments; records
 * the order pending with its lines (within the buyer's cap of pending orders); confirms its spots, creates the
 * charge in payments and announces `order.created`. Every call to another service is made with no transaction
 * open. From the moment the order is recorded, a crash at any step leaves something the expiry sweep closes (before
 * it, the provisional spots lapse by themselves); every refusal on the way gives back what was taken.
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
  // A promotional price is one ticket's: refused before anything is asked of anyone.
  if (input.promoCode && (input.items?.length ?? 1) > 1) throw new AppError(422, messages.promoOneTicket);
  if (input.promoCode && input.couponCode) throw new AppError(422, couponMessages.withPromo);
  return oneAtATime(deps.placements, `${caller.id}:${input.eventId}`, async () => {
    let buyer: Promise<Buyer> | undefined;
    const findBuyer = () => (buyer ??= verifiedBuyer(deps, caller.id));
    for (let round = 0; round < 2; round++) {
      const earlier = await earlierAnswer(deps, caller.id, input, idempotencyKey);
      if (earlier) return earlier;
      if (deps.soldOut.has(input.eventId)) throw spotRefusal(deps, { eventId: input.eventId }, 'sold_out');
      const made = await placeOrder(deps, caller.id, findBuyer, input, idempotencyKey ?? null);
      if (made) return { outcome: 'created', read: made };
      // A twin request (same key, or same buyer and event) recorded first: the next round answers what it did.
    }
    throw conflict(messages.orderInProgress);
  });
}

/**
 * Runs `work` once no other work of `key` is running in this process: a double click reaching this replica waits
 * for the first purchase and is answered its order, instead of holding spots that would then be given back.
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

/**
 * What an earlier request left, in one read (the unique indexes on the key and on the buyer's pending order of the
 * event decide which request makes it): the order made with this key, or the buyer's pending one, once charged.
 */
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
    if (await isMade(deps, keyed)) return { outcome: 'replayed', read: await readOrder(deps, keyed) };
  }
  if (pending && pending.id !== keyed?.id && (await isMade(deps, pending))) {
    return { outcome: 'existing', read: await readOrder(deps, pending) };
  }
  return undefined;
}

/**
 * Whether an earlier order is made (it has its charge). One still being made by a request on another replica is
 * answered 'in progress' (this replica's twins waited for theirs in `oneAtATime`); one recorded longer ago than any
 * purchase can take was left by a process that died midway: it is given up (its spots and use back,
 * `order.cancelled` for a charge made meanwhile) and this request tries afresh.
 */
async function isMade(deps: OrdersDeps, order: Order): Promise<boolean> {
  if (order.asaasPaymentId !== null || order.status !== 'pending') return order.asaasPaymentId !== null;
  if (Date.now() - order.createdAt.getTime() <= deps.limits.creationMs) throw conflict(messages.orderInProgress);
  await abandonOrder(deps, order, 'creation_interrupted', undefined);
  return false;
}

/**
 * Makes a new order; undefined when a twin request recorded its order first (unique index). The spots are held
 * before the buyer is asked of identity: through a rush, most buyers are refused a spot, and a refusal costs no more.
 *
 * The catalog is called twice in the common path, a provisional hold and its confirmation, on purpose: the hold
 * answers the price of each line (its type's current lot), which the order is recorded with, so it comes before
 * the order exists; a hold taken for an order that may never be recorded (the process dying in between) must lapse
 * by itself, so it is provisional until the recorded order confirms it. One final hold would need the order
 * recorded first, unpriced, costing every refused buyer of a rush a write and an identity call.
 */
async function placeOrder(
  deps: OrdersDeps,
  userId: string,
  findBuyer: () => Promise<Buyer>,
  input: CreateOrder,
  idempotencyKey: string | null,
): Promise<OrderRead | undefined> {
  const promo = input.promoCode ? await quotePromo(deps, input.eventId, input.promoCode) : null;
  // A promotional link's type is what its order buys (the only hidden type it opens); else the event's first type.
  const asked = input.items ?? [{ ticketTypeId: promo?.ticketType?.id ?? (await firstTypeOf(deps, input.eventId)) }];
  if (promo) checkPromoType(promo, asked);
  const purchase: Purchase = {
    id: randomUUID(),
    userId,
    eventId: input.eventId,
    courtesyLinkId: promo?.linkId ?? null,
    couponCode: input.couponCode ?? null,
  };
  if (input.promoCode) await takePromoUse(deps, purchase, input.promoCode);
  const coupon = input.couponCode
    ? await takeCouponUse(deps, { ...purchase, couponCode: input.couponCode }, asked)
    : null;
  // Only a promotional link opens hidden types: the one it names (checked above), or any for a link naming none.
  const held = await holdSpots(deps, purchase, asked, { includeHidden: promo !== null });
  const buyer = await findBuyer().catch(async (error: unknown) => {
    await giveBackPurchase(deps, purchase, { spot: true });
    throw error;
  });
  const recorded = await recordOrder(deps, purchase, { buyer, held, promo, coupon, input, idempotencyKey });
  if (!recorded) return undefined;
  const { order, items, window } = recorded;
  await confirmSpots(deps, order);
  const charge = await chargeOrder(deps, { order, items }, buyer, window.dueDate);
  const stored = await storeCharge(deps.db, order.id, charge.paymentId, announcement(deps, order, items, charge));
  // Nothing but this request touches a fresh order before its charge is stored: its window is far from over.
  if (!stored) throw new Error(`order ${order.id} left pending before its charge was stored`);
  deps.outbox.written();
  deps.logger.info(
    { orderId: stored.id, eventId: stored.eventId, paymentMethod: stored.paymentMethod, tickets: items.length },
    'order created',
  );
  return { order: stored, items, tickets: [], payment: charge, charge: null };
}

/**
 * The event's first type, for a purchase that names none (the spec's one ticket), from the catalog's event (believed a
 * few seconds, see `believedMemory`). An event whose types the catalog does not list yet sells its one type, whose
 * id is the event's; so does one it does not show (unknown, cancelled, inactive), whose hold then answers why it
 * sells nothing.
 */
async function firstTypeOf(deps: OrdersDeps, eventId: string): Promise<string> {
  const believed = deps.firstTypes.get(eventId);
  if (believed) return believed;
  let event: EventView;
  try {
    event = await deps.catalog.getEvent(eventId);
  } catch (error) {
    if (error instanceof AppError) return eventId;
    deps.logger.warn({ err: error, eventId }, 'catalog unavailable');
    throw new AppError(503, messages.serviceUnavailable);
  }
  const typeId = event.ticketTypes[0]?.id ?? event.id;
  deps.firstTypes.remember(eventId, typeId);
  return typeId;
}

/** `order.created`, written with the charge: how to pay it goes to mail with it, never kept here. */
function announcement(deps: OrdersDeps, order: Order, items: OrderItem[], charge: ChargeView) {
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
        invoiceUrl: charge.invoiceUrl,
        pixPayload: charge.pixPayload,
        boletoUrl: charge.boletoUrl,
        boletoLine: charge.boletoLine,
        ...snapshots(order),
        items,
        company: order.company,
        installments: order.installments,
        discountAmount: order.discountAmount,
      },
    },
  ]);
  return envelope!;
}

/**
 * Records the order pending with its lines, with its payment window before the event's start, within the buyer's
 * cap of pending orders, its amount net of the coupon's discount (taken off the held lines' prices). Undefined when
 * a twin request recorded its order first; a refusal (a missing CPF, installments the event's terms do not give for
 * this amount among them) gives back what the purchase took.
 */
async function recordOrder(
  deps: OrdersDeps,
  purchase: Purchase,
  details: {
    buyer: Buyer;
    held: HeldSpots;
    promo: PromoQuote | null;
    coupon: CouponQuote | null;
    input: CreateOrder;
    idempotencyKey: string | null;
  },
): Promise<{ order: Order; items: OrderItem[]; window: PaymentWindow } | undefined> {
  const { buyer, held, promo, coupon, input, idempotencyKey } = details;
  const { event } = held;
  try {
    // A company's purchase is made out to its CNPJ: the buyer's CPF is not asked for.
    if (!input.company && !buyer.cpf) throw new AppError(422, messages.cpfMissing);
    const items = orderItems(held, input.items, buyer, promo);
    const discountCents = coupon ? couponDiscountCents(coupon, items) : 0;
    const amount = orderAmount(items, discountCents);
    const installments = input.installments ?? 1;
    const allowed = allowedInstallments(toCents(amount), event.installments);
    if (!allowed.includes(installments)) throw new AppError(422, installmentMessages.notAllowed(allowed));
    const window = paymentWindow(input.paymentMethod, new Date(), new Date(event.date));
    if (window === 'boleto_too_late') throw new AppError(422, messages.boletoTooLate);
    if (window === 'no_time') throw conflict(messages.noTimeToPay);
    const order = await insertPendingOrder(deps.db, deps.limits.maxPendingOrders, {
      ...purchase,
      cpf: buyer.cpf,
      company: input.company ?? null,
      paymentMethod: input.paymentMethod,
      installments,
      amount,
      discountAmount: fromCents(discountCents),
      coupon: coupon && { id: coupon.couponId, code: coupon.code },
      expiresAt: window.expiresAt,
      event: { title: event.title, date: new Date(event.date), location: event.location },
      buyer: { name: buyer.name, email: buyer.email },
      idempotencyKey,
      items,
    });
    if (!order) throw conflict(messages.tooManyPending(deps.limits.maxPendingOrders));
    return { order, items, window };
  } catch (error) {
    await giveBackPurchase(deps, purchase, { spot: true });
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** Who the charge is made out to: the company the order is bought for (its finance's e-mail), or the buyer. */
function customerOf(order: Order, buyer: Buyer): ChargeRequest['customer'] {
  const { company } = order;
  if (company) return { userId: buyer.id, name: company.name, cnpj: company.cnpj, email: company.email };
  return {
    userId: buyer.id,
    name: buyer.name,
    cpf: order.cpf!,
    email: buyer.email,
    ...(buyer.phone ? { phone: buyer.phone } : {}),
  };
}

async function chargeOrder(
  deps: OrdersDeps,
  { order, items }: { order: Order; items: OrderItem[] },
  buyer: Buyer,
  dueDate: string,
): Promise<ChargeView> {
  try {
    return await deps.payments.createCharge(order.id, {
      method: order.paymentMethod!,
      amount: order.amount,
      // What the provider's page shows: the tickets, the order, the event ('2× Profissional – pedido EF-000123 – …').
      description: `${saleSummary(items)} – pedido ${order.orderNumber} – ${order.event.title}`.slice(0, 500),
      dueDate,
      customer: customerOf(order, buyer),
      installments: order.installments,
      orderNumber: order.orderNumber,
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
