import {
  maskCpf,
  type AdminOrderAnswer,
  type OrderBuyerView,
  type OrderSearchRow,
  type OrderView,
  type PaymentView,
} from '@ticketing/proto';
import type { Order } from '../domain/order.ts';
import { withdrawalRefusal } from '../domain/withdrawal.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * An order as the profile page reads it (spec §7), with its event as it was sold, why its money goes back (still on
 * its way while `pending`), whether the buyer may withdraw from it now, and, while it waits for payment, how to pay it.
 */
export function toOrderView(order: Order, now = new Date()): OrderView {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    amount: order.amount,
    totalAmount: order.amount,
    items: [],
    paymentMethod: order.paymentMethod,
    createdAt: order.createdAt.toISOString(),
    expiresAt: iso(order.expiresAt),
    qrCodeData: order.qrCodeData,
    qrCodeUsed: order.qrCodeUsed,
    qrCodeUsedAt: iso(order.qrCodeUsedAt),
    asaasPaymentId: order.asaasPaymentId,
    event: { title: order.event.title, date: order.event.date.toISOString(), location: order.event.location },
    refund: order.refundReason
      ? {
          reason: order.refundReason,
          pending: order.refundOwedSince !== null,
          requestedAt: iso(order.refundRequest?.at ?? null),
        }
      : null,
    canWithdraw: withdrawalRefusal(order, now) === null,
    withdrawalRequestedAt: order.status === 'paid' ? iso(order.withdrawalRequestedAt) : null,
    payment: order.status === 'pending' && order.asaasPaymentId !== null ? toPaymentView(order) : null,
  };
}

/** How to pay a pending order: the PIX code, the boleto (PDF and digitable line) or the provider's payment page. */
export function toPaymentView(order: Order): PaymentView {
  return {
    pixQrCode: order.pixQrCode,
    pixPayload: order.pixPayload,
    boletoUrl: order.boletoUrl,
    boletoLine: order.boletoLine,
    invoiceUrl: order.invoiceUrl,
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
  };
}

/** An order as the back office opens it: as the buyer sees it, with the buyer and the provider's net. */
export function toAdminOrder(order: Order, now = new Date()): AdminOrderAnswer['order'] {
  return { ...toOrderView(order, now), eventId: order.eventId, buyer: buyerOf(order), netAmount: order.netAmount };
}
