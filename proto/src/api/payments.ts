import { z } from 'zod';
import { uuidParam } from './params.ts';

/**
 * Orders → payments, inside the cluster (`PUT /internal/charges/:orderId`): one provider charge per order, the
 * order id as the provider's externalReference, so repeating the call never charges twice.
 */
export const chargeRequestSchema = z.object({
  method: z.enum(['pix', 'credit_card', 'boleto']),
  amount: z.string().regex(/^\d+\.\d{2}$/),
  description: z.string().max(500),
  /** YYYY-MM-DD: the provider's due date (boleto's is its last day). */
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  customer: z.object({
    userId: z.uuid(),
    name: z.string().min(1),
    cpf: z.string().regex(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/),
    email: z.string().min(3),
    phone: z.string().optional(),
  }),
});

export type ChargeRequest = z.infer<typeof chargeRequestSchema>;

/** The charge as orders keeps it and the checkout shows it (the answer to `PUT /internal/charges/:orderId`). */
export const chargeViewSchema = z.object({
  paymentId: z.string(),
  providerStatus: z.string(),
  pixQrCode: z.string().nullable(),
  pixPayload: z.string().nullable(),
  boletoUrl: z.string().nullable(),
  /** The boleto's digitable line, to pay it in a bank's app without the PDF. */
  boletoLine: z.string().nullable(),
  invoiceUrl: z.string().nullable(),
});
export type ChargeView = z.infer<typeof chargeViewSchema>;

/**
 * `POST /internal/charges/:orderId/check` (asks the provider once; a paid charge also publishes payment.confirmed)
 * and `POST /internal/charges/:orderId/refund`.
 */
export const chargeStatusViewSchema = z.object({
  paymentId: z.string(),
  providerStatus: z.string(),
  paid: z.boolean(),
});
export type ChargeStatusView = z.infer<typeof chargeStatusViewSchema>;

export const paymentsMessages = {
  providerRefused: 'Erro ao processar pagamento: o provedor recusou a cobrança',
  providerUnavailable: 'Erro ao processar pagamento: o provedor de pagamentos não respondeu. Tente novamente.',
  chargeNotFound: 'Cobrança não encontrada',
  invalidOrderId: 'Identificador de pedido inválido',
  invalidWebhookToken: 'Token de webhook inválido',
  invalidOrderIds: 'Informe de 1 a 50 identificadores de pedido separados por vírgula',
} as const;

/** `PUT /internal/charges/:orderId`: the order to charge (400 when it is not an order id). */
export const newChargeParamsSchema = z.object({ orderId: uuidParam(paymentsMessages.invalidOrderId) });
/** `POST /internal/charges/:orderId/check|refund`: the order whose charge is meant (404 when it names none). */
export const chargeParamsSchema = z.object({ orderId: uuidParam(paymentsMessages.chargeNotFound) });

/** The most orders one `GET /internal/charges?orderIds=` asks about (a page of the buyer's orders is ten). */
export const MAX_CHARGES_PER_READ = 50;

/**
 * `GET /internal/charges?orderIds=a,b` (orders): how to pay each order named, read when orders answers an order again
 * (a replayed purchase, the buyer's pending orders); orders keeps none of it.
 */
export const chargesQuerySchema = z.object({
  orderIds: z
    .string({ error: paymentsMessages.invalidOrderIds })
    .transform((value) => value.split(',').filter(Boolean))
    .pipe(
      z
        .array(z.uuid({ error: paymentsMessages.invalidOrderIds }))
        .min(1, paymentsMessages.invalidOrderIds)
        .max(MAX_CHARGES_PER_READ, paymentsMessages.invalidOrderIds),
    ),
});

/** The answer: each named order's charge that exists at the provider (orders without one are left out). */
export const chargeListSchema = z.object({
  charges: z.array(chargeViewSchema.extend({ orderId: z.uuid() })),
});
export type ChargeList = z.infer<typeof chargeListSchema>;
