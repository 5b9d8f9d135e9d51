import type { OrderView } from '@ticketing/proto';

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
