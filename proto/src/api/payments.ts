import { z } from 'zod';
import { uuidParam } from './params.ts';
import { decimalAmount } from '../money.ts';
import { MAX_INSTALLMENTS } from '../installments.ts';

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
  /**
   * Who the charge is made out to: the buyer by CPF, or the company they buy for by CNPJ (`name` its razão social,
   * `email` its finance department's). Exactly one of `cpf` and `cnpj`.
   */
  customer: z
    .object({
      userId: z.uuid(),
      name: z.string().min(1),
      cpf: z
        .string()
        .regex(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/)
        .optional(),
      cnpj: z
        .string()
        .regex(/^[\dA-Z]{2}\.[\dA-Z]{3}\.[\dA-Z]{3}\/[\dA-Z]{4}-\d{2}$/)
        .optional(),
      email: z.string().min(3),
      phone: z.string().optional(),
    })
    .refine((customer) => (customer.cpf === undefined) !== (customer.cnpj === undefined), 'cpf or cnpj, one of them'),
  /** Card installments: more than 1 only for `credit_card` (the provider splits `amount` into them). */
  installments: z.number().int().min(1).max(MAX_INSTALLMENTS).optional(),
  /** The order's number, for the nota fiscal and the e-mails about it. */
  orderNumber: z.string().max(40).optional(),
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

/**
 * A paid charge's money going back, as payments sees it: `in_progress` at the provider, `awaiting_bank_details`
 * (a boleto: the payer gives the bank account at `bankDetailsUrl`, the provider's page), `refunded` once done.
 */
export const chargeRefundViewSchema = z.object({
  status: z.enum(['in_progress', 'awaiting_bank_details', 'refunded']),
  bankDetailsUrl: z.string().nullable(),
});
export type ChargeRefundView = z.infer<typeof chargeRefundViewSchema>;

/** `POST /internal/charges/:orderId/refund`: the charge, and its refund as the provider took it. */
export const chargeRefundAnswerSchema = chargeStatusViewSchema.extend({ refund: chargeRefundViewSchema });
export type ChargeRefundAnswer = z.infer<typeof chargeRefundAnswerSchema>;

/**
 * A nota fiscal (NFS-e) at the provider: `scheduled` (asked, not yet issued by the city), `authorized` (issued:
 * `pdfUrl`), `error` (the city or the provider refused it: `reason`), `cancelling`, `cancelled` (its order refunded).
 */
export const INVOICE_STATUSES = ['scheduled', 'authorized', 'error', 'cancelling', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const invoiceViewSchema = z.object({ status: z.enum(INVOICE_STATUSES), pdfUrl: z.string().nullable() });
export type InvoiceView = z.infer<typeof invoiceViewSchema>;

export const paymentsMessages = {
  providerRefused: 'Erro ao processar pagamento: o provedor recusou a cobrança',
  providerUnavailable: 'Erro ao processar pagamento: o provedor de pagamentos não respondeu. Tente novamente.',
  chargeNotFound: 'Cobrança não encontrada',
  refundRefused: (reason: string) => `O provedor de pagamentos recusou o estorno: ${reason}`,
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

/**
 * The answer: each named order's charge that exists at the provider (orders without one are left out), with its
 * installments, its nota fiscal and its refund (null while there is none).
 */
export const chargeListSchema = z.object({
  charges: z.array(
    chargeViewSchema.extend({
      orderId: z.uuid(),
      installments: z.number().int().default(1),
      invoice: invoiceViewSchema.nullable().default(null),
      refund: chargeRefundViewSchema.nullable().default(null),
    }),
  ),
});
export type ChargeList = z.infer<typeof chargeListSchema>;

export const fiscalMessages = {
  invalid: 'Configuração fiscal inválida',
  serviceDescription: 'Informe a descrição do serviço (3 a 500 caracteres).',
  municipalService: 'Informe o código ou o identificador do serviço municipal.',
  municipalServiceLength: 'O serviço municipal deve ter no máximo 60 caracteres.',
  issRate: 'A alíquota de ISS deve ser de 0 a 5%.',
  deductions: 'As deduções devem ser um valor maior ou igual a zero.',
  saved: 'Configuração fiscal salva.',
} as const;

const municipalField = z
  .string({ error: fiscalMessages.municipalServiceLength })
  .trim()
  .max(60, fiscalMessages.municipalServiceLength)
  .transform((value) => value || null)
  .nullable()
  .default(null);

/**
 * `PUT /api/payments/fiscal-settings` (administrators): what each paid order's nota fiscal (NFS-e) says. While
 * `enabled` is false, or before they are saved, no nota fiscal is asked for. `issRate` is a percentage; `deductions`
 * the amount taken off each note's taxable value.
 */
export const fiscalSettingsSchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: fiscalMessages.invalid }),
      serviceDescription: z
        .string({ error: fiscalMessages.serviceDescription })
        .trim()
        .min(3, fiscalMessages.serviceDescription)
        .max(500, fiscalMessages.serviceDescription),
      municipalServiceCode: municipalField,
      municipalServiceId: municipalField,
      municipalServiceName: z
        .string({ error: fiscalMessages.invalid })
        .trim()
        .max(255, fiscalMessages.invalid)
        .transform((value) => value || null)
        .nullable()
        .default(null),
      issRate: z
        .number({ error: fiscalMessages.issRate })
        .min(0, fiscalMessages.issRate)
        .max(5, fiscalMessages.issRate),
      deductions: decimalAmount(fiscalMessages.deductions).default('0.00'),
      retainIss: z.boolean({ error: fiscalMessages.invalid }).default(false),
    },
    { error: fiscalMessages.invalid },
  )
  .refine((settings) => settings.municipalServiceCode !== null || settings.municipalServiceId !== null, {
    error: fiscalMessages.municipalService,
    path: ['municipalServiceCode'],
  });
export type FiscalSettings = z.infer<typeof fiscalSettingsSchema>;

/** `GET|PUT /api/payments/fiscal-settings`: the settings in force (null before they are first saved). */
export interface FiscalSettingsAnswer {
  settings: (FiscalSettings & { updatedAt: string }) | null;
}

/** `GET /api/payments/invoices?status=error` (administrators): notas fiscais that need a person, newest first. */
export const invoiceListQuerySchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: 'Situação de nota fiscal inválida' }).default('error'),
});
export interface InvoiceRow {
  orderId: string;
  orderNumber: string | null;
  invoiceId: string | null;
  status: InvoiceStatus;
  /** The provider's or the city's reason, for an error. */
  reason: string | null;
  value: string;
  updatedAt: string;
}
export interface InvoiceListAnswer {
  invoices: InvoiceRow[];
}

const INVALID_WEBHOOK = 'Notificação de pagamento inválida';

/**
 * `POST /api/payments/webhook`: the provider's notification of a payment or a nota fiscal (Asaas's webhook body; fields
 * beyond these are kept as sent).
 */
export const paymentWebhookSchema = z.looseObject({
  id: z.string({ error: INVALID_WEBHOOK }).min(1, INVALID_WEBHOOK).max(200, INVALID_WEBHOOK),
  event: z.string({ error: INVALID_WEBHOOK }).min(1, INVALID_WEBHOOK).max(100, INVALID_WEBHOOK),
  dateCreated: z.string().max(40).optional(),
  payment: z
    .looseObject({
      id: z.string({ error: INVALID_WEBHOOK }).min(1, INVALID_WEBHOOK).max(100, INVALID_WEBHOOK),
      status: z.string().max(60).optional(),
      value: z.number().optional(),
      externalReference: z.string().max(200).nullish(),
      deleted: z.boolean().optional(),
    })
    .optional(),
  invoice: z
    .looseObject({
      id: z.string({ error: INVALID_WEBHOOK }).min(1, INVALID_WEBHOOK).max(100, INVALID_WEBHOOK),
      status: z.string().max(60).optional(),
      externalReference: z.string().max(200).nullish(),
    })
    .optional(),
});
