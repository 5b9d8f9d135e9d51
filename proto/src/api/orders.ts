import { z } from 'zod';
import { reasonSchema, type ReasonedAnswer } from './reason.ts';
import { uuidParam } from './params.ts';
import { cpfField, emailField, nameField } from './identity.ts';
import type { orderRefunded } from '../events/orders.ts';
import { formatCnpj, isValidCnpj } from '../cnpj.ts';
import { installmentMessages, MAX_INSTALLMENTS } from '../installments.ts';
import type { InvoiceStatus } from './payments.ts';

/** The convenience fee added to every paid ticket (spec §9): R$ 5,00. */
export const CONVENIENCE_FEE_CENTS = 500;

/**
 * How long each method's payment window keeps the spot held, never past the event's start. A boleto's money reaches
 * the provider up to `boletoSettlementBusinessDays` after it is paid (bank clearing), so its due date is brought
 * forward until that falls before the event; none left, no boleto. A window shorter than `minimumMinutes` is no time
 * to pay: the order is refused.
 */
export const PAYMENT_WINDOWS = {
  pixMinutes: 30,
  cardHours: 24,
  boletoBusinessDays: 7,
  boletoSettlementBusinessDays: 3,
  minimumMinutes: 5,
} as const;

/** The catalog hold that keeps an order's spot, named after the order so every retry is the same hold. */
export const orderHoldId = (orderId: string) => `order:${orderId}`;

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'expired', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ordersMessages = {
  emailNotVerified: 'Confirme seu e-mail antes de comprar ingressos.',
  soldOut: 'Evento esgotado',
  unavailable: 'Este evento não está disponível para compra.',
  eventNotFound: 'Evento não encontrado',
  invalidPromo: 'Este código promocional não é válido para este evento.',
  paymentError: 'Erro ao processar pagamento',
  orderNotFound: 'Pedido não encontrado',
  alreadyPaid: 'Este pedido já foi pago e não pode ser cancelado.',
  notPending: 'Apenas pedidos aguardando pagamento podem ser cancelados.',
  cancelled: 'Pedido cancelado.',
  checkTooSoon: 'Aguarde alguns segundos antes de verificar o pagamento novamente.',
  paymentConfirmed: 'Pagamento confirmado! Seu ingresso foi enviado por e-mail.',
  paymentPending: 'Pagamento ainda não identificado. Tente novamente em alguns minutos.',
  notCheckable: 'Este pedido não está aguardando pagamento.',
  boletoTooLate:
    'O boleto não seria compensado antes do início do evento. Escolha PIX ou cartão de crédito para garantir seu ingresso.',
  noTimeToPay: 'O evento começa em instantes: não há mais tempo para concluir o pagamento.',
  tooManyPending: (max: number) =>
    `Você já tem ${max} ${max === 1 ? 'pedido' : 'pedidos'} aguardando pagamento. Pague ou cancele um deles antes de fazer outro.`,
  tooManyOrders: 'Muitos pedidos em pouco tempo. Aguarde um instante e tente novamente.',
} as const;

/** The most tickets one order carries. */
export const MAX_TICKETS_PER_ORDER = 10;

/** Until this long before the event starts, the buyer may hand a ticket to another holder. */
export const HOLDER_CHANGE_CLOSES_HOURS = 48;

export const orderItemMessages = {
  tooFewTickets: 'Escolha pelo menos 1 ingresso.',
  tooManyTickets: `Um pedido pode ter no máximo ${MAX_TICKETS_PER_ORDER} ingressos.`,
  ticketTypeInvalid: 'Tipo de ingresso inválido',
  holderCpfRequired: (typeName: string) => `Informe o CPF do titular: o ingresso ${typeName} exige documento.`,
  holderChangeClosed: `A troca de titular fecha ${HOLDER_CHANGE_CLOSES_HOURS} horas antes do evento.`,
  holderChangeNotPaid: 'Só é possível trocar o titular de ingressos de pedidos confirmados.',
  itemNotFound: 'Ingresso não encontrado neste pedido',
  holderChanged: 'Titular alterado. O novo titular recebe o ingresso por e-mail; o QR Code anterior deixa de valer.',
  promoOneTicket: 'O código promocional vale para um pedido de 1 ingresso. Faça os demais ingressos em outro pedido.',
  promoOtherType: (typeName: string) => `Este código promocional vale para o ingresso ${typeName}.`,
} as const;

/** Who a ticket is for: name and e-mail, and the CPF when its type asks for a document at the door. */
export const holderSchema = z.strictObject(
  { name: nameField, email: emailField, cpf: cpfField.optional() },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Campo desconhecido: ${issue.keys.join(', ')}` : 'Titular inválido',
  },
);
export type Holder = z.infer<typeof holderSchema>;

/** One ticket asked for: its type, and its holder (none: the buyer's own ticket, 'Este ingresso é meu'). */
export const orderItemInputSchema = z.strictObject(
  { ticketTypeId: z.uuid({ error: orderItemMessages.ticketTypeInvalid }), holder: holderSchema.optional() },
  { error: 'Ingresso inválido' },
);
export type OrderItemInput = z.infer<typeof orderItemInputSchema>;

export const companyMessages = {
  cnpjInvalid: 'CNPJ inválido',
  nameInvalid: 'Informe a razão social da empresa (2 a 255 caracteres).',
  emailInvalid: 'E-mail do financeiro inválido',
  purchaseOrderInvalid: 'O número do pedido de compra deve ter no máximo 60 caracteres.',
  invalid: 'Dados da empresa inválidos',
} as const;

/** A CNPJ with valid check digits (numeric or alphanumeric), kept formatted: `12.345.678/0001-95`. */
export const cnpjField = z
  .string({ error: companyMessages.cnpjInvalid })
  .trim()
  .refine(isValidCnpj, companyMessages.cnpjInvalid)
  .transform(formatCnpj);

/**
 * Buying as a company: the charge is made out to its CNPJ and sent to its finance department's e-mail; the tickets
 * still go to the holders the order names. `purchaseOrder` is the company's own purchase order number, printed on
 * the charge and the nota fiscal.
 */
export const companySchema = z.strictObject(
  {
    cnpj: cnpjField,
    name: z
      .string({ error: companyMessages.nameInvalid })
      .trim()
      .min(2, companyMessages.nameInvalid)
      .max(255, companyMessages.nameInvalid),
    email: z
      .string({ error: companyMessages.emailInvalid })
      .trim()
      .max(255, companyMessages.emailInvalid)
      .pipe(z.email(companyMessages.emailInvalid))
      .transform((email) => email.toLowerCase()),
    purchaseOrder: z
      .string({ error: companyMessages.purchaseOrderInvalid })
      .trim()
      .max(60, companyMessages.purchaseOrderInvalid)
      .transform((value) => value || null)
      .nullable()
      .default(null),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Campo desconhecido: ${issue.keys.join(', ')}` : companyMessages.invalid,
  },
);
export type OrderCompany = z.infer<typeof companySchema>;

export const couponCodeMessages = { invalid: 'Cupom inválido' } as const;

export const createOrderSchema = z
  .object(
    {
      eventId: z.uuid({ error: 'Evento inválido' }),
      /** Absent: one ticket of the event's first type, for the buyer (the spec's purchase). */
      items: z
        .array(orderItemInputSchema, { error: 'Ingressos inválidos' })
        .min(1, orderItemMessages.tooFewTickets)
        .max(MAX_TICKETS_PER_ORDER, orderItemMessages.tooManyTickets)
        .optional(),
      paymentMethod: z.enum(['pix', 'credit_card', 'boleto'], { error: 'Forma de pagamento inválida' }),
      promoCode: z
        .string({ error: 'Código promocional inválido' })
        .trim()
        .max(100, 'Código promocional inválido')
        .transform((code) => code.toUpperCase())
        .optional(),
      /** Buying as a company (its CNPJ is the charge's customer); absent: the buyer's own CPF. */
      company: companySchema.optional(),
      /** Card installments (1: at once); only `credit_card` takes more than 1, within the event's terms. */
      installments: z
        .number({ error: installmentMessages.invalid })
        .int(installmentMessages.invalid)
        .min(1, installmentMessages.invalid)
        .max(MAX_INSTALLMENTS, installmentMessages.invalid)
        .optional(),
      /** A coupon typed at checkout; one per order. An empty field counts as none. */
      couponCode: z
        .string({ error: couponCodeMessages.invalid })
        .trim()
        .max(40, couponCodeMessages.invalid)
        .transform((code) => code.toUpperCase() || undefined)
        .optional(),
    },
    { error: 'Dados do pedido inválidos' },
  )
  .refine((order) => (order.installments ?? 1) === 1 || order.paymentMethod === 'credit_card', {
    error: installmentMessages.cardOnly,
    path: ['installments'],
  });

export type CreateOrder = z.infer<typeof createOrderSchema>;

/** `PUT /api/orders/:id/items/:index/holder` (the buyer): the ticket's new holder. */
export const changeHolderSchema = holderSchema;

/** `/api/orders/:id/items/:index/…`: the order and the ticket's place in it. */
export const orderItemParamsSchema = z.object({
  id: uuidParam(ordersMessages.orderNotFound),
  index: z.coerce
    .number({ error: orderItemMessages.itemNotFound })
    .int(orderItemMessages.itemNotFound)
    .min(0, orderItemMessages.itemNotFound)
    .max(MAX_TICKETS_PER_ORDER - 1, orderItemMessages.itemNotFound),
});

/** One ticket of an order as its buyer sees it: type, the lot's price, holder, and the ticket once issued. */
export interface OrderItemView {
  index: number;
  ticketTypeId: string;
  typeName: string;
  /** The lot whose price the ticket was sold at; null for a type without lots. */
  lotName: string | null;
  /** The ticket's price, without the convenience fee. */
  price: string;
  /** The door checks a document: its holder's CPF is asked for. */
  requiresDocument: boolean;
  holderName: string;
  holderEmail: string;
  /** Issued once the order is paid; null before. */
  ticketId: string | null;
  /** The ticket's QR as a PNG data URL, from tickets; null before it is issued. */
  qrCodeData: string | null;
  /** Admitted at the door at least once. */
  qrCodeUsed: boolean;
  /** Whether the buyer may hand it to another holder now. */
  canChangeHolder: boolean;
}
/** An order as the profile page reads it (spec §7). */
export interface OrderView {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  amount: string;
  /** What the buyer pays: every ticket's price plus a convenience fee each (equal to `amount`). */
  totalAmount: string;
  /** Its tickets, in the order they were asked for. */
  items: OrderItemView[];
  /** Null for a courtesy order: paid at R$ 0,00 when the courtesy was redeemed. */
  paymentMethod: 'pix' | 'credit_card' | 'boleto' | null;
  createdAt: string;
  expiresAt: string | null;
  /** The first ticket's QR (the spec's one ticket per order); each ticket's is in `items`. */
  qrCodeData: string | null;
  qrCodeUsed: boolean;
  qrCodeUsedAt: string | null;
  asaasPaymentId: string | null;
  event: { title: string; date: string; location: string };
  /** Set once the order's money is to go back (or went back); null otherwise. */
  refund: OrderRefundView | null;
  /** Whether the buyer may withdraw from the purchase now (CDC art. 49: 7 days from payment, before the event). */
  canWithdraw: boolean;
  /** When the buyer withdrew, while the ticket is being voided (the money goes back after); null otherwise. */
  withdrawalRequestedAt: string | null;
  /** How to pay a pending order with a charge (the profile shows it until it is paid); null otherwise. */
  payment: PaymentView | null;
  /** The company the order was bought for (the charge's customer); null for a purchase in the buyer's own name. */
  company: OrderCompany | null;
  /** Card installments the charge was made in (1: at once, and every other method). */
  installments: number;
  /** What the coupon took off the tickets ("0.00" without one); `amount` is already net of it. */
  discountAmount: string;
  /** The coupon used, as typed (upper-cased); null without one. */
  couponCode: string | null;
  /** The order's nota fiscal (NFS-e), once asked of the provider; null while there is none. */
  invoice: OrderInvoiceView | null;
}

/** An order's nota fiscal: `pdfUrl` once the city authorized it. */
export interface OrderInvoiceView {
  status: InvoiceStatus;
  pdfUrl: string | null;
}

/**
 * Where an order's money going back stands: `requested` (being given back), `awaiting_bank_details` (a boleto's
 * refund waits for the payer to give their bank details at `bankDetailsUrl`), `refused` (the provider refused it: an
 * administrator looks), `refunded` (done).
 */
export const REFUND_STATUSES = ['requested', 'awaiting_bank_details', 'refused', 'refunded'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why and when an order's money goes back; `pending` while the provider has not yet given it back. */
export interface OrderRefundView {
  reason: OrderRefundReason;
  /** Until the money is back with the buyer (`status` not `refunded`). */
  pending: boolean;
  requestedAt: string | null;
  status: RefundStatus;
  /** A paid boleto's refund: where the payer gives the bank account the money goes to. */
  bankDetailsUrl?: string;
}

/** How to pay a pending order: what the checkout dialog shows after the order is made, and the profile until it is paid. */
export interface PaymentView {
  /** The PIX QR code, a base64 PNG without the data: prefix. */
  pixQrCode: string | null;
  /** The PIX copy-paste code. */
  pixPayload: string | null;
  /** The boleto's PDF. */
  boletoUrl: string | null;
  /** The boleto's digitable line. */
  boletoLine: string | null;
  /** The provider's payment page (where a card is paid). */
  invoiceUrl: string | null;
  expiresAt: string;
}

/** Why an order's money goes back (the reasons of `order.refunded`). */
export type OrderRefundReason = z.infer<typeof orderRefunded>['reason'];

/** The buyer's right of withdrawal (CDC art. 49): days from the payment of an online purchase. */
export const WITHDRAWAL_DAYS = 7;

/**
 * The doors open this long before an event starts (the door admits early arrivals): from then on a buyer may no
 * longer withdraw, and a ticket admitted at any time ends the right too.
 */
export const DOORS_OPEN_MINUTES_BEFORE_EVENT = 60;

export const refundMessages = {
  reasonRequired: 'Informe o motivo do reembolso.',
  reasonLength: 'O motivo do reembolso deve ter entre 3 e 500 caracteres.',
  refundNotPaid: 'Somente pedidos pagos podem ser reembolsados.',
  alreadyRefunded: 'Este pedido já foi reembolsado.',
  nothingToRefund: 'Pedidos de cortesia não têm valor a devolver e não podem ser reembolsados.',
  refundRequested: 'Reembolso solicitado. O valor volta para a mesma forma de pagamento.',
  withdrawalRequested:
    'Desistência registrada. Assim que o ingresso for cancelado, o valor volta para a mesma forma de pagamento.',
  withdrawalInProgress: 'Sua desistência já foi registrada e está em análise.',
  withdrawalTooLate: 'O prazo de 7 dias para desistir da compra (CDC art. 49) já terminou.',
  withdrawalEventStarted: 'O evento já começou: não é mais possível desistir da compra.',
  withdrawalDoorsOpen:
    'As portas do evento já abriram: não é mais possível desistir da compra. Se precisar, fale com a organização.',
  refundBankDetails: 'Informe seus dados bancários para receber o reembolso',
  withdrawalAfterEntry:
    'Este ingresso já foi usado na entrada do evento: não é possível desistir da compra. Se precisar, fale com a organização.',
} as const;

/** An administrator refunds a paid order in full: the reason is kept with the order. */
export const refundOrderSchema = reasonSchema(refundMessages);
export type RefundOrder = z.infer<typeof refundOrderSchema>;

/** The answer to a refund or a withdrawal: the order as the buyer now sees it. */
export type RefundAnswer = ReasonedAnswer<'order', OrderView>;

/** `/api/orders/:id/…` and `/api/admin/orders/:id/…`: the order the path names. */
export const orderParamsSchema = z.object({ id: uuidParam(ordersMessages.orderNotFound) });
