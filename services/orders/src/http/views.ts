import {
  maskCpf,
  type AdminOrderAnswer,
  type ChargeView,
  type OrderBuyerView,
  type OrderItemView,
  type OrderRefundView,
  type OrderSearchRow,
  type OrderView,
  type PaymentView,
  type RefundAttentionRow,
  type RefundStatus,
} from '@ticketing/proto';
import type { ListedCharge } from '../clients/payments.ts';
import { holderChangeRefusal } from '../domain/holder-change.ts';
import type { Order } from '../domain/order.ts';
import type { OrderRead } from '../domain/order-reads.ts';
import { withdrawalRefusal } from '../domain/withdrawal.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * An order as the profile page reads it (spec §7), with its event as it was sold, its tickets, why its money goes
 * back (still on its way while `pending`), whether the buyer may withdraw from it now, and, while it waits for
 * payment, how to pay it.
 */
export function toOrderView({ order, items, tickets, payment, charge }: OrderRead, now = new Date()): OrderView {
  const canChangeHolder = holderChangeRefusal(order, now) === null;
  const itemViews = items.map((item): OrderItemView => {
    const ticket = tickets.find((candidate) => candidate.itemIndex === item.index);
    return {
      index: item.index,
      ticketTypeId: item.ticketTypeId,
      typeName: item.typeName,
      lotName: item.lotName,
      price: item.price,
      requiresDocument: item.requiresDocument,
      holderName: item.holder.name,
      holderEmail: item.holder.email,
      ticketId: ticket?.ticketId ?? null,
      qrCodeData: ticket?.qrCodeData ?? null,
      qrCodeUsed: Boolean(ticket?.usedAt),
      canChangeHolder,
    };
  });
  const first = tickets.find((ticket) => ticket.itemIndex === 0);
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    amount: order.amount,
    totalAmount: order.amount,
    items: itemViews,
    paymentMethod: order.paymentMethod,
    createdAt: order.createdAt.toISOString(),
    expiresAt: iso(order.expiresAt),
    qrCodeData: first?.qrCodeData ?? null,
    qrCodeUsed: Boolean(first?.usedAt),
    qrCodeUsedAt: iso(first?.usedAt ?? null),
    asaasPaymentId: order.asaasPaymentId,
    event: { title: order.event.title, date: order.event.date.toISOString(), location: order.event.location },
    refund: toRefundView(order, charge),
    canWithdraw: withdrawalRefusal(order, now) === null,
    withdrawalRequestedAt: order.status === 'paid' ? iso(order.withdrawalRequestedAt) : null,
    payment: payment ? toPaymentView(order, payment) : null,
    company: order.company,
    installments: order.installments,
    discountAmount: order.discountAmount,
    couponCode: order.coupon?.code ?? null,
    invoice: charge?.invoice ?? null,
  };
}

/**
 * Where the order's money going back stands: while owed, orders knows (being asked of payments, or refused by the
 * provider); once payments took it, payments knows (a boleto's waits for the payer's bank details). A charge
 * payments does not list now (or no answer) reads as done.
 */
function refundStatus(order: Order, charge: ListedCharge | null): RefundStatus {
  if (order.refundOwedSince) return order.refundRefusal ? 'refused' : 'requested';
  if (charge?.refund?.status === 'awaiting_bank_details') return 'awaiting_bank_details';
  return charge?.refund?.status === 'in_progress' ? 'requested' : 'refunded';
}

function toRefundView(order: Order, charge: ListedCharge | null): OrderRefundView | null {
  if (!order.refundReason) return null;
  const status = refundStatus(order, charge);
  const bankDetailsUrl = status === 'awaiting_bank_details' ? charge?.refund?.bankDetailsUrl : null;
  return {
    reason: order.refundReason,
    pending: status !== 'refunded',
    requestedAt: iso(order.refundRequest?.at ?? null),
    status,
    ...(bankDetailsUrl ? { bankDetailsUrl } : {}),
  };
}

/** How to pay a pending order: the PIX code, the boleto (PDF and digitable line) or the provider's payment page. */
export function toPaymentView(order: Order, charge: ChargeView): PaymentView {
  return {
    pixQrCode: charge.pixQrCode,
    pixPayload: charge.pixPayload,
    boletoUrl: charge.boletoUrl,
    boletoLine: charge.boletoLine,
    invoiceUrl: charge.invoiceUrl,
    expiresAt: order.expiresAt!.toISOString(),
  };
}

/** The buyer as the back office sees them: the CPF masked. */
const buyerOf = (order: Order): OrderBuyerView => ({
  userId: order.userId,
  name: order.buyer.name,
  email: order.buyer.email,
  cpf: maskCpf(order.cpf),
});

/** One line of the back office's order search. */
export function toOrderSearchRow(order: Order): OrderSearchRow {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    paymentMethod: order.paymentMethod,
    amount: order.amount,
    createdAt: order.createdAt.toISOString(),
    buyer: buyerOf(order),
    event: { id: order.eventId, title: order.event.title, date: order.event.date.toISOString() },
    company: order.company && { cnpj: order.company.cnpj, name: order.company.name },
  };
}

/** A refund the provider refused, as the back office lists it for an administrator to try again. */
export function toRefundAttentionRow(order: Order): RefundAttentionRow {
  return {
    orderId: order.id,
    orderNumber: order.orderNumber,
    amount: order.amount,
    paymentMethod: order.paymentMethod,
    reason: order.refundReason!,
    refusal: order.refundRefusal!.reason,
    refusedAt: order.refundRefusal!.at.toISOString(),
    buyer: { name: order.buyer.name, email: order.buyer.email },
    event: { id: order.eventId, title: order.event.title },
  };
}

/** An order as the back office opens it: as the buyer sees it (its tickets too), with the buyer and the provider's net. */
export function toAdminOrder(read: OrderRead, now = new Date()): AdminOrderAnswer['order'] {
  const { order } = read;
  return { ...toOrderView(read, now), eventId: order.eventId, buyer: buyerOf(order), netAmount: order.netAmount };
}
