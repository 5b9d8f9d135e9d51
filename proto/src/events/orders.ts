import { z } from 'zod';

const money = z.string().regex(/^\d+\.\d{2}$/);
const isoDate = z.iso.datetime({ offset: true });
export const paymentMethod = z.enum(['pix', 'credit_card', 'boleto']);

/** What the ticket and its e-mail show about the event, copied into the order when it was made. */
export const eventSnapshot = z.object({ title: z.string(), date: isoDate, location: z.string() });
export const buyerSnapshot = z.object({ name: z.string(), email: z.string() });

/** A new order waiting for payment; for a card, mail sends the buyer the provider's payment link. */
export const orderCreated = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  amount: money,
  paymentMethod,
  expiresAt: isoDate,
  invoiceUrl: z.url().nullable(),
  buyer: buyerSnapshot,
  event: eventSnapshot,
});

/** A paid order: tickets issues its ticket; a courtesy order is paid at R$ 0,00. */
export const orderPaid = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  amount: money,
  paidAt: isoDate,
  buyer: buyerSnapshot,
  event: eventSnapshot,
  courtesyLinkId: z.uuid().nullable(),
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
 * (`late_payment`), a refund of a paid order (`refund`) or a card holder's dispute (`chargeback`).
 * Tickets cancels the order's ticket and catalog releases its spot.
 */
export const orderRefunded = z.object({
  orderId: z.uuid(),
  orderNumber: z.string(),
  userId: z.uuid(),
  eventId: z.uuid(),
  reason: z.enum(['late_payment', 'refund', 'chargeback']),
  amount: money,
  buyer: buyerSnapshot,
  event: eventSnapshot,
});
