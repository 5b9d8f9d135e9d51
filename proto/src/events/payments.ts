import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';
import { INVOICE_STATUSES } from '../api/payments.ts';

/** The provider says the order's charge is paid (CONFIRMED, RECEIVED, RECEIVED_IN_CASH). */
export const paymentConfirmed = z.object({
  orderId: z.uuid(),
  paymentId: z.string(),
  providerStatus: z.string(),
  value: z.string(),
  /** What the provider pays out after its fee ("150.61"), when it says. */
  netValue: z
    .string()
    .regex(/^\d{1,8}\.\d{2}$/)
    .optional(),
  paidAt: isoDateTime,
});

/** The charge will not be paid: deleted, refunded, refused or reproved by risk analysis. */
export const paymentFailed = z.object({ orderId: z.uuid(), paymentId: z.string(), providerStatus: z.string() });

/** The due date passed without payment (a boleto may still be paid late). */
export const paymentOverdue = z.object({ orderId: z.uuid(), paymentId: z.string() });

/** Money the provider already received went back: refunded by us or the bank, or disputed by the card holder. */
export const paymentRefunded = z.object({
  orderId: z.uuid(),
  paymentId: z.string(),
  providerStatus: z.string(),
  reason: z.enum(['refund', 'chargeback']),
});

/**
 * An order's nota fiscal moved (scheduled, authorized, error, cancelling, cancelled): orders notes it on the order's
 * timeline, and mail sends the authorized PDF to whom the charge was made out to (the buyer, or the company's finance).
 */
export const invoiceChanged = z.object({
  orderId: z.uuid(),
  orderNumber: z.string().nullable(),
  invoiceId: z.string(),
  status: z.enum(INVOICE_STATUSES),
  pdfUrl: z.string().nullable(),
  /** The provider's or the city's reason, for an error. */
  reason: z.string().nullable(),
  recipient: z.object({ name: z.string(), email: z.string() }),
  at: isoDateTime,
});
