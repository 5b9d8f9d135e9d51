import { z } from 'zod';
import { isoDateTime } from '../envelope.ts';

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
