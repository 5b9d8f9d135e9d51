import { z } from 'zod';
import type { OrderRefundReason, OrderStatus, OrderView } from './orders.ts';
import { pageQuerySchema, searchText } from './params.ts';

export const backOfficeMessages = {
  invalidEvent: 'Evento inválido',
  invalidSearch: 'Busca inválida',
  searchTooLong: 'A busca deve ter no máximo 100 caracteres.',
  invalidPage: 'Página inválida',
} as const;

/** An empty query parameter (`?eventId=`) reads as absent. */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** `GET /api/admin/sales?eventId=`: one event's figures, or every event's when absent. */
export const salesQuerySchema = z.object({
  eventId: z.preprocess(blankAsAbsent, z.uuid({ error: backOfficeMessages.invalidEvent }).optional()),
});
export type SalesQuery = z.infer<typeof salesQuerySchema>;

/** How a paid order was paid; `courtesy` is a redeemed courtesy (R$ 0,00, no charge). */
export const SALES_METHODS = ['pix', 'credit_card', 'boleto', 'courtesy'] as const;
export type SalesMethod = (typeof SALES_METHODS)[number];

/**
 * The sales figures of one event or of all (`GET /api/admin/sales`). Money is a decimal string ("155.00").
 * Revenue counts the orders paid now: a refunded order's money went back, so it is left out of `gross`, `fee` and
 * `net` and shown in `refunded`. `fee` is what the payment provider kept (its `netValue`); a payment whose net the
 * provider did not tell counts with no fee.
 */
export interface SalesView {
  /** The event asked for (title and date as its latest order has them; null while it has none); null for every event. */
  event: { id: string; title: string | null; date: string | null } | null;
  gross: string;
  fee: string;
  net: string;
  /** What went back to buyers (refunded orders' amounts). */
  refunded: string;
  /** What coupons took off the paid orders (already out of `gross`), in all and by coupon, most used first. */
  discounts: string;
  perCoupon: { code: string; orders: number; discount: string }[];
  orders: {
    /** Every order, by its status now. */
    byStatus: Record<OrderStatus, number>;
    /** The paid orders, by how they were paid. */
    byMethod: Record<SalesMethod, number>;
  };
  /** Tickets valid now: bought (paid orders with a charge) and courtesies. */
  tickets: { paid: number; courtesy: number };
  /** Bought tickets per day of payment (America/Sao_Paulo), oldest first; days without sales are left out. */
  perDay: SalesDay[];
  /**
   * Valid tickets that came in at the door (first check-in kept; a reset does not undo it), against the valid
   * tickets. `eventStarted`: whether the event (over every event: any event) started; over every event, only
   * events that started count.
   */
  checkIns: { eventStarted: boolean; checkedIn: number; sold: number };
  /** Each event with sales or orders, soonest first; only in the view of every event (empty for one). */
  perEvent: SalesEventRow[];
  /** The valid tickets of one event by type, and within each by the lot they were sold at; empty for every event. */
  perType: SalesTypeRow[];
}

export interface SalesTypeRow {
  ticketTypeId: string;
  typeName: string;
  /** Valid tickets of the type (bought and courtesies) and what they were sold for (without the convenience fee). */
  tickets: number;
  gross: string;
  /** By the lot's name ('1º lote'); a type sold without lots has one row named null. */
  perLot: { lotName: string | null; tickets: number; gross: string }[];
}

export interface SalesDay {
  /** YYYY-MM-DD in America/Sao_Paulo. */
  date: string;
  orders: number;
  gross: string;
}

export interface SalesEventRow {
  eventId: string;
  title: string;
  date: string;
  gross: string;
  net: string;
  /** Valid bought tickets and courtesies. */
  paid: number;
  courtesy: number;
  checkedIn: number;
}

/** `GET /api/admin/orders?q=&page=`: by order id, order number, buyer e-mail, CPF or name; no `q` lists every order. */
export const orderSearchQuerySchema = pageQuerySchema.extend({
  q: searchText({ invalid: backOfficeMessages.invalidSearch, tooLong: backOfficeMessages.searchTooLong }).default(''),
  /** `company=true`: only orders bought for a company (`q` also finds them by CNPJ or razão social). */
  company: z
    .enum(['true', 'false'], { error: 'Filtro de empresa inválido' })
    .transform((value) => value === 'true')
    .optional(),
});
export type OrderSearchQuery = z.infer<typeof orderSearchQuerySchema>;

/** The buyer of an order as the back office sees them; the CPF masked (`***.456.789-**`). */
export interface OrderBuyerView {
  userId: string;
  name: string;
  email: string;
  cpf: string | null;
}

/** One order in the back office's search results. */
export interface OrderSearchRow {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  /** Null for a courtesy. */
  paymentMethod: OrderView['paymentMethod'];
  amount: string;
  createdAt: string;
  buyer: OrderBuyerView;
  event: { id: string; title: string; date: string };
  /** The company it was bought for; null for a purchase in the buyer's own name. */
  company: { cnpj: string; name: string } | null;
}

/** Newest first, 20 per page. */
export interface OrderSearchAnswer {
  orders: OrderSearchRow[];
  total: number;
  totalPages: number;
}

export const ORDER_TIMELINE_KINDS = [
  'created',
  'charged',
  'paid',
  'ticket_issued',
  'email_sent',
  'checked_in',
  'reset',
  'refund_requested',
  'refunded',
  'cancelled',
  'expired',
  'refund_refused',
  'refund_awaiting_bank_details',
  'invoice_authorized',
  'invoice_error',
  'invoice_cancelled',
] as const;
export type OrderTimelineKind = (typeof ORDER_TIMELINE_KINDS)[number];

/**
 * What happened to an order, when. `detail` is a short pt-BR note: the provider's payment id (charged), "Cortesia"
 * (paid), the administrator's reason (refund_requested), why the money went back (refunded).
 */
export interface OrderTimelineEntry {
  at: string;
  kind: OrderTimelineKind;
  detail: string | null;
}

/** `GET /api/admin/orders/:id`: the order as the buyer sees it, its buyer, and its timeline oldest first. */
export interface AdminOrderAnswer {
  order: OrderView & { eventId: string; buyer: OrderBuyerView; netAmount: string | null };
  timeline: OrderTimelineEntry[];
}

/** Why an order's money went back, as the back office shows it. */
export const refundReasonLabels = {
  late_payment: 'Pagamento após o prazo, sem vaga',
  refund: 'Reembolso',
  withdrawal: 'Desistência do comprador (CDC art. 49)',
  chargeback: 'Contestação no cartão (chargeback)',
  event_cancelled: 'Evento cancelado',
} as const satisfies Record<OrderRefundReason, string>;

/**
 * `GET /api/admin/refunds`: refunds that need a person, oldest first: the provider refused them (its reason kept),
 * and they wait for an administrator to try again (`POST /api/admin/orders/:id/refund/retry`).
 */
export interface RefundAttentionRow {
  orderId: string;
  orderNumber: string;
  amount: string;
  paymentMethod: OrderView['paymentMethod'];
  reason: OrderRefundReason;
  /** The provider's words. */
  refusal: string;
  refusedAt: string;
  buyer: { name: string; email: string };
  event: { id: string; title: string };
}
export interface RefundAttentionAnswer {
  refunds: RefundAttentionRow[];
}
