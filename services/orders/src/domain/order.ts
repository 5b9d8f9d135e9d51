import {
  SERVICE_UNAVAILABLE,
  type CatalogClient,
  type Knex,
  type Logger,
  type Outbox,
  type Redis,
} from '@ticketing/platform';
import {
  orderHoldId,
  orderItemMessages,
  ordersMessages,
  refundMessages,
  type EventPayload,
  type OrderCompany,
  type OrderStatus,
} from '@ticketing/proto';
import type { CourtesyClient } from '../clients/courtesy.ts';
import type { IdentityClient } from '../clients/identity.ts';
import type { PaymentsClient } from '../clients/payments.ts';
import { itemsOf } from '../data/orders-repository.ts';
import type { BelievedMemory } from './believed.ts';

export type PaymentMethod = 'pix' | 'credit_card' | 'boleto';

/** Why the money of an order went back: paid after it ended with no spot left, refunded, withdrawn, disputed, or its event cancelled. */
export type RefundReason = EventPayload<'order.refunded'>['reason'];

/** One ticket of an order: its place, type, the lot and price it was sold at, and its holder. */
export type OrderItem = EventPayload<'order.holder-changed'>['item'];

/** An order as the use cases see it. Money is a decimal string with two places ("155.00"), as `numeric(10,2)` keeps it. */
export interface Order {
  id: string;
  orderNumber: string;
  userId: string;
  eventId: string;
  courtesyAttendeeId: string | null;
  courtesyLinkId: string | null;
  cpf: string | null;
  status: OrderStatus;
  /** Null for a courtesy order: it is paid at R$ 0,00 when the courtesy is redeemed. */
  paymentMethod: PaymentMethod | null;
  amount: string;
  asaasPaymentId: string | null;
  expiresAt: Date | null;
  paidAt: Date | null;
  /** The first time any of its tickets was admitted at the door, as tickets told it; a reset does not undo attendance. */
  firstCheckedInAt: Date | null;
  /** While a withdrawal waits for tickets to void the ticket (the money goes back once it is void); null otherwise. */
  withdrawalRequestedAt: Date | null;
  event: { title: string; date: Date; location: string };
  buyer: { name: string; email: string };
  idempotencyKey: string | null;
  /** Set once the charge's money went back, whatever the status (a cancelled order keeps it too). */
  refundReason: RefundReason | null;
  /** Since when payments still has to give the money back (a late payment, a refund, a withdrawal); null when nothing is owed. */
  refundOwedSince: Date | null;
  /** Who asked for the refund (an administrator, the buyer withdrawing, or no one for a cancelled event), when, and why. */
  refundRequest: { by: string | null; at: Date; note: string | null } | null;
  /** What the provider paid out after its fee, when payment.confirmed told it. */
  netAmount: string | null;
  /** A payment that arrived after the order expired or was cancelled, waiting for the catalog to say if a spot is left. */
  latePayment: { paymentId: string; paidAt: Date; netAmount: string | null } | null;
  /** The company it was bought for (the charge's customer); null for a purchase in the buyer's own name. */
  company: OrderCompany | null;
  /** Card installments the charge was made in (1 for every other method). */
  installments: number;
  /** What the coupon took off the tickets ("0.00" without one); `amount` is already net of it. */
  discountAmount: string;
  /** The coupon whose use the order took, as typed (upper-cased). */
  coupon: { id: string; code: string } | null;
  /** An owed refund the provider refused (its words): it waits for an administrator instead of the retry job. */
  refundRefusal: { at: Date; reason: string } | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What every orders use case needs. */
export interface OrdersDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  redis: Redis;
  catalog: CatalogClient;
  payments: PaymentsClient;
  identity: IdentityClient;
  courtesy: CourtesyClient;
  limits: {
    maxPendingOrders: number;
    /** The longest a purchase can still be under way once its order is recorded: its remaining calls all timing out. */
    creationMs: number;
  };
  /** Purchases being placed in this process, by buyer and event: a twin request waits for the first to finish. */
  placements: Map<string, Promise<unknown>>;
  soldOut: BelievedMemory<true>;
  firstTypes: BelievedMemory<string>;
}

export const messages = {
  ...ordersMessages,
  ...orderItemMessages,
  ...refundMessages,
  sessionInvalid: 'Sessão inválida ou expirada. Faça login novamente.',
  serviceUnavailable: SERVICE_UNAVAILABLE,
  cpfMissing: 'Erro ao processar pagamento: cadastre seu CPF no perfil antes de comprar.',
  noRefusedRefund: 'Este pedido não tem um reembolso recusado pelo provedor para tentar de novo.',
  paymentUnavailable: 'Erro ao processar pagamento: o serviço de pagamentos não respondeu. Tente novamente.',
  checkFailed: 'Erro ao verificar status do pagamento',
  orderInProgress: 'Seu pedido ainda está sendo processado. Tente novamente em instantes.',
  idempotencyKeyReused: 'Esta chave de idempotência já foi usada em outro pedido.',
  invalidIdempotencyKey: 'Chave de idempotência inválida: use até 100 letras, números, "_", "-", "." ou ":"',
} as const;

/**
 * The hold a late payment takes for an order that expired or was cancelled. The first hold is released by the
 * catalog when it reads order.expired / order.cancelled (a released hold id cannot take spots again, and a release still on its way must not free a paid spot), so a
 * spot taken back needs an id of its own; it is still one per order, so a redelivered payment takes one spot.
 */
export const lateHoldIdOf = (orderId: string) => `${orderHoldId(orderId)}:late`;

/** A courtesy order (R$ 0,00, no charge) has no money to give back. */
export const hasMoney = (order: Order) => order.paymentMethod !== null && Number(order.amount) > 0;

/**
 * Writes `order.cancelled` for an order given up before payment: catalog releases its spot, courtesy its promotional
 * use, payments deletes its charge.
 */
export async function announceCancelled(
  outbox: Outbox,
  trx: Knex.Transaction,
  order: Pick<Order, 'id' | 'userId' | 'eventId' | 'asaasPaymentId'>,
  paymentId = order.asaasPaymentId,
): Promise<void> {
  await outbox.add(trx, 'order.cancelled', order.id, {
    orderId: order.id,
    userId: order.userId,
    eventId: order.eventId,
    paymentId,
  });
}

/**
 * Writes `order.paid` for an order just paid: tickets issues a ticket per line, each to its holder, which the door
 * finds by the CPF too.
 */
export async function announcePaid(outbox: Outbox, trx: Knex.Transaction, order: Order): Promise<void> {
  const { buyer, event } = snapshots(order);
  const items = await itemsOf(trx, order.id);
  await outbox.add(trx, 'order.paid', order.id, {
    orderId: order.id,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    amount: order.amount,
    paidAt: order.paidAt!.toISOString(),
    courtesyLinkId: order.courtesyLinkId,
    // Only a redeemed courtesy has no payment method: an order with a promotional code is charged like any other.
    paymentMethod: order.paymentMethod ?? 'courtesy',
    buyer: { ...buyer, cpf: order.cpf },
    event,
    items,
    // The buyer's confirmation shows what the coupon took off and the card's installments.
    installments: order.installments,
    discountAmount: order.discountAmount,
  });
}

/**
 * Writes `order.refunded` for an order whose money went back: tickets cancels its ticket, catalog frees its spot; a
 * boleto's refund carries the page where the payer gives the bank account (mail sends it).
 */
export async function announceRefunded(
  outbox: Outbox,
  trx: Knex.Transaction,
  order: Order,
  bankDetailsUrl: string | null = null,
): Promise<void> {
  await outbox.add(trx, 'order.refunded', order.id, {
    orderId: order.id,
    orderNumber: order.orderNumber,
    userId: order.userId,
    eventId: order.eventId,
    reason: order.refundReason!,
    amount: order.amount,
    ...snapshots(order),
    ...(bankDetailsUrl ? { bankDetailsUrl } : {}),
  });
}

/** Snapshots the events carry about the buyer and the event. */
export function snapshots(order: Order) {
  return {
    buyer: { name: order.buyer.name, email: order.buyer.email },
    event: { title: order.event.title, date: order.event.date.toISOString(), location: order.event.location },
  };
}
