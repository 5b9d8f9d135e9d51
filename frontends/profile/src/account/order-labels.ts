import { fromCents, installmentCents, toCents, type OrderView } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared/format';

/** The PNG of the ticket is named after the order, as in the ticket e-mail. */
export const ticketFileName = (order: Pick<OrderView, 'orderNumber'>) => `ingresso-${order.orderNumber}.png`;

/** One ticket of an order of several: the order's number and the ticket's place in it (from 1). */
export const itemFileName = (orderNumber: string, index: number) => `ingresso-${orderNumber}-${index + 1}.png`;

/** One page of `GET /api/orders?page=n`. */
export interface OrdersPage {
  orders: OrderView[];
  totalPages: number;
}

/** Every page of the orders list: invalidated after a change to any order. */
export const ordersQueryKey = ['orders'] as const;

/** A card charged in installments, as the buyer reads it ('Cartão em 3x de R$ 431,67'); null otherwise. */
export function installmentsLabel(order: Pick<OrderView, 'paymentMethod' | 'installments' | 'totalAmount'>) {
  const count = order.installments;
  if (order.paymentMethod === 'credit_card' && count > 1) {
    return `Cartão em ${count}x de ${formatBRL(fromCents(installmentCents(toCents(order.totalAmount), count)))}`;
  }
  return null;
}
