import type { CourtesyLinkTicketType, CreateOrder, EventView, OrderView, PaymentView } from '@ticketing/proto';

export type PaymentMethod = CreateOrder['paymentMethod'];

/** A promotional code that applies to the event, the ticket price it gives, and the type it sells (null: any). */
export interface Promo {
  code: string;
  price: string;
  ticketType: CourtesyLinkTicketType;
}

/** POST /api/orders: the order and what the buyer needs to pay it. */
export interface OrderAnswer {
  order: OrderView;
  payment: PaymentView;
}

export interface CheckoutProps {
  event: EventView;
  promo: Promo | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** After 'Concluir'. */
  onSuccess(): void;
}
