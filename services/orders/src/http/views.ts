import type { OrderView, PaymentView } from '@ticketing/proto';
import type { Order } from '../domain/order.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An order as the profile page reads it (spec §7), with its event as it was sold. */
export function toOrderView(order: Order): OrderView {
  return {
    id: order.id,
    orderNumber: order.orderNumber,
    status: order.status,
    amount: order.amount,
    paymentMethod: order.paymentMethod,
    createdAt: order.createdAt.toISOString(),
    expiresAt: iso(order.expiresAt),
    qrCodeData: order.qrCodeData,
    qrCodeUsed: order.qrCodeUsed,
    qrCodeUsedAt: iso(order.qrCodeUsedAt),
    asaasPaymentId: order.asaasPaymentId,
    event: { title: order.event.title, date: order.event.date.toISOString(), location: order.event.location },
  };
}

/** What the checkout dialog shows to pay: the PIX code, the boleto or the provider's payment page. */
export function toPaymentView(order: Order): PaymentView {
  return {
    pixQrCode: order.pixQrCode,
    pixPayload: order.pixPayload,
    boletoUrl: order.boletoUrl,
    invoiceUrl: order.invoiceUrl,
    expiresAt: order.expiresAt!.toISOString(),
  };
}
