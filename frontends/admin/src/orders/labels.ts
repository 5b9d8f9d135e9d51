import type { OrderTimelineKind } from '@ticketing/proto';

/** What each step of an order's story is called on its timeline. */
export const TIMELINE_LABELS: Record<OrderTimelineKind, string> = {
  created: 'Pedido criado',
  charged: 'Cobrança gerada',
  paid: 'Pagamento confirmado',
  ticket_issued: 'Ingresso emitido',
  email_sent: 'E-mail enviado',
  checked_in: 'Entrada registrada',
  reset: 'Ingresso liberado (reset)',
  refund_requested: 'Reembolso solicitado',
  refunded: 'Reembolsado',
  cancelled: 'Cancelado',
  expired: 'Expirado',
};
