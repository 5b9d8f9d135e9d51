import type { InvoiceStatus, OrderTimelineKind, RefundStatus } from '@ticketing/proto';

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
  refund_refused: 'Reembolso recusado pelo provedor',
  refund_awaiting_bank_details: 'Reembolso aguardando dados bancários',
  invoice_authorized: 'Nota fiscal emitida',
  invoice_error: 'Erro na nota fiscal',
  invoice_cancelled: 'Nota fiscal cancelada',
};

/** Where an order's nota fiscal stands. */
export const INVOICE_LABELS: Record<InvoiceStatus, string> = {
  scheduled: 'Solicitada, aguardando a prefeitura',
  authorized: 'Emitida',
  error: 'Com erro',
  cancelling: 'Em cancelamento',
  cancelled: 'Cancelada',
};

/** Where the money going back stands, after the refund's reason. */
export const REFUND_STATUS_LABELS: Record<RefundStatus, string> = {
  requested: 'a caminho do comprador',
  awaiting_bank_details: 'aguardando os dados bancários do comprador',
  refused: 'recusada pelo provedor',
  refunded: 'concluída',
};
