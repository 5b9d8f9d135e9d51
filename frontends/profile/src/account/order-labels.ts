import type { OrderStatus, OrderView } from '@ticketing/proto';
import type { BadgeTone } from '@ticketing/shared';

const STATUSES: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Aguardando Pagamento', tone: 'warning' },
  paid: { label: 'Confirmado', tone: 'success' },
  cancelled: { label: 'Cancelado', tone: 'danger' },
  expired: { label: 'Expirado', tone: 'neutral' },
  refunded: { label: 'Reembolsado', tone: 'brand' },
};

/** The status badge; a status this page does not know yet is shown as the server wrote it. */
export const statusOf = (status: string) =>
  STATUSES[status as OrderStatus] ?? { label: status, tone: 'neutral' as BadgeTone };

const METHODS = { pix: 'PIX', credit_card: 'Cartão de crédito', boleto: 'Boleto' } as const;

/** A courtesy order has no payment method: it was redeemed, not paid. */
export const paymentMethodOf = (order: Pick<OrderView, 'paymentMethod'>) =>
  order.paymentMethod ? METHODS[order.paymentMethod] : 'Cortesia';

/** The PNG of the ticket is named after the order, as in the ticket e-mail. */
export const ticketFileName = (order: Pick<OrderView, 'orderNumber'>) => `ingresso-${order.orderNumber}.png`;

/** One page of `GET /api/orders?page=n`. */
export interface OrdersPage {
  orders: OrderView[];
  totalPages: number;
}

/** Every page of the orders list: invalidated after a change to any order. */
export const ordersQueryKey = ['orders'] as const;
