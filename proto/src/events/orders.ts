import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';

const money = z.string().regex(/^\d+\.\d{2}$/);
export const paymentMethod = z.enum(['pix', 'credit_card', 'boleto']);

/** What the ticket and its e-mail show about the event, copied into the order when it was made. */
export const eventSnapshot = z.object({ title: z.string(), date: isoDateTime, location: z.string() });
export const buyerSnapshot = z.object({ name: z.string(), email: z.string() });

/** The company an order is bought for: the charge's customer, and where its finance department reads e-mail. */
export const orderCompany = z.object({
  cnpj: z.string(),
  name: z.string(),
  email: z.string(),
  purchaseOrder: z.string().nullable(),
});

/** Who a ticket is for; `cpf` when its type asks for a document (the door checks it), else null. */
export const holderSnapshot = z.object({ name: z.string(), email: z.string(), cpf: z.string().nullable() });

/** One ticket of an order: its place, type, the price its lot gave, whether the door checks a document, its holder. */
export const orderItem = z.object({
  index: z.number().int().min(0),
  ticketTypeId: z.uuid(),
  typeName: z.string(),
  lotName: z.string().nullable(),
  price: money,
  requiresDocument: z.boolean(),
  holder: holderSnapshot,
});
export type OrderItem = z.infer<typeof orderItem>;

/**
 * A new order waiting for payment: mail sends the buyer how to pay it (the PIX code, the boleto, or the card's
 * payment page). The PIX QR image is not carried: mail draws it from the copy-paste code. The payment fields are
 * absent from orders created before they were sent.
 */
export const orderCreated = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  amount: money,
  paymentMethod,
  expiresAt: isoDateTime,
  invoiceUrl: z.url().nullable(),
  /** The PIX copy-paste code. */
  pixPayload: z.string().nullable().optional(),
  /** The boleto's PDF and its digitable line. */
  boletoUrl: z.url().nullable().optional(),
  boletoLine: z.string().nullable().optional(),
  buyer: buyerSnapshot,
  event: eventSnapshot,
  /** Its tickets; absent from orders made before orders had several (one ticket, for the buyer). */
  items: z.array(orderItem).optional(),
  /** Bought for a company: mail also sends how to pay it to the company's finance e-mail. */
  company: orderCompany.nullable().optional(),
  /** Card installments (absent: 1). */
  installments: z.number().int().min(1).optional(),
  /** What a coupon took off (absent: nothing). */
  discountAmount: money.optional(),
});

/** A paid order: tickets issues its ticket; a courtesy order is paid at R$ 0,00. */
export const orderPaid = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  amount: money,
  paidAt: isoDateTime,
  /** `cpf` as the order keeps it (the buyer's, or the courtesy guest's): the door finds the holder by it. */
  buyer: buyerSnapshot.extend({ cpf: z.string().nullable().optional() }),
  event: eventSnapshot,
  courtesyLinkId: z.uuid().nullable(),
  /** How it was paid; `courtesy` for a redeemed courtesy (R$ 0,00). Absent from orders paid before it was sent. */
  paymentMethod: z.enum([...paymentMethod.options, 'courtesy']).optional(),
  /** One ticket each (tickets issues them, mail sends each its holder); absent: one ticket, held by the buyer. */
  items: z.array(orderItem).optional(),
  /** Card installments (absent: 1), shown on the buyer's confirmation. */
  installments: z.number().int().min(1).optional(),
  /** What a coupon took off (absent: nothing), shown on the buyer's confirmation. */
  discountAmount: money.optional(),
});

/**
 * The buyer handed a ticket of a paid order to another holder: tickets reissues it to them (the QR before is
 * refused as outdated) and mail sends them the ticket.
 */
export const orderHolderChanged = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  item: orderItem,
  previous: holderSnapshot,
  changedAt: isoDateTime,
});

/** The spot is released (catalog) and the provider charge deleted (payments). */
export const orderCancelled = z.object({
  orderId: z.uuid(),
  userId: z.uuid(),
  eventId: z.uuid(),
  paymentId: z.string().nullable(),
});

export const orderExpired = orderCancelled;

/**
 * The money goes back and no ticket stands: a payment that came after the order expired with no spot left
 * (`late_payment`), a refund of a paid order (`refund`), the buyer's withdrawal within 7 days of the purchase
 * (`withdrawal`, CDC art. 49), a card holder's dispute (`chargeback`) or the event cancelled by its organizers
 * (`event_cancelled`; a courtesy order at '0.00'). Tickets cancels the order's ticket and catalog releases its spot.
 */
export const orderRefunded = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  reason: z.enum(['late_payment', 'refund', 'withdrawal', 'chargeback', 'event_cancelled']),
  amount: money,
  buyer: buyerSnapshot,
  event: eventSnapshot,
  /** A paid boleto's refund: the page where the payer gives the bank account the money goes to. */
  bankDetailsUrl: z.string().nullable().optional(),
});

/**
 * The buyer withdrew from a paid order (CDC art. 49) and orders accepted it: tickets voids the order's ticket unless
 * the door admitted it first, and answers with ticket.withdrawal-decided. The money goes back only once the ticket
 * is void, so a ticket is never both admitted and refunded.
 */
export const orderWithdrawalRequested = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  requestedAt: isoDateTime,
  buyer: buyerSnapshot,
  event: eventSnapshot,
});
