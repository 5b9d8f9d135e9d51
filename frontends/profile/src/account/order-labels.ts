import type { OrderView } from '@ticketing/proto';

/** The PNG of the ticket is named after the order, as in the ticket e-mail. */
export const ticketFileName = (order: Pick<OrderView, 'orderNumber'>) => `ingresso-${order.orderNumber}.png`;

/** One page of `GET /api/orders?page=n`. */
export interface OrdersPage {
  orders: OrderView[];
  totalPages: number;
}

/** Every page of the orders list: invalidated after a change to any order. */
export const ordersQueryKey = ['orders'] as const;
