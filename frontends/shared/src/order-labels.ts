import type { OrderStatus, OrderView, TicketPaymentMethod } from '@ticketing/proto';
import type { BadgeTone } from './ui/Badge.tsx';

const STATUSES: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Aguardando Pagamento', tone: 'warning' },
  paid: { label: 'Confirmado', tone: 'success' },
  cancelled: { label: 'Cancelado', tone: 'danger' },
  expired: { label: 'Expirado', tone: 'neutral' },
  refunded: { label: 'Reembolsado', tone: 'brand' },
};

/** An order status's badge; a status this page does not know yet is shown as the server wrote it. */
export const statusOf = (status: string) =>
  STATUSES[status as OrderStatus] ?? { label: status, tone: 'neutral' as BadgeTone };

/** An order's badge: a refund whose money is still on its way reads as such, not yet as refunded. */
export const orderStatusOf = (order: Pick<OrderView, 'status' | 'refund'>) =>
  order.status === 'refunded' && order.refund?.pending
    ? { label: 'Reembolso em andamento', tone: 'warning' as BadgeTone }
    : statusOf(order.status);

const PAYMENT_METHODS: Record<TicketPaymentMethod, string> = {
  pix: 'PIX',
  credit_card: 'Cartão de crédito',
  boleto: 'Boleto',
  courtesy: 'Cortesia',
};

/** How a ticket or sale was paid; tickets issued before the method was kept have none to show. */
export const paymentLabel = (method: TicketPaymentMethod | null) => (method ? PAYMENT_METHODS[method] : '—');

/** A courtesy order has no payment method: it was redeemed, not paid. */
export const paymentMethodOf = (order: Pick<OrderView, 'paymentMethod'>) =>
  paymentLabel(order.paymentMethod ?? 'courtesy');
