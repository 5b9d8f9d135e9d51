import type { OrderRefundReason, OrderRefundView, OrderView } from '@ticketing/proto';
import { formatBRL, formatDateTime } from '@ticketing/shared';

/** Why the order's money went back, as the buyer reads it. */
const WHY: Record<OrderRefundReason, string> = {
  withdrawal: 'Desistência atendida',
  refund: 'Pedido reembolsado',
  late_payment: 'O pagamento chegou depois do prazo, quando não havia mais vagas',
  chargeback: 'O pagamento foi contestado junto à operadora do cartão',
  event_cancelled: 'O evento foi cancelado',
};

/**
 * A withdrawal waiting for its ticket to be cancelled: the money goes back once it is, unless the door admitted the
 * ticket first (then the buyer is told by e-mail).
 */
export function WithdrawalInReview({ order, requestedAt }: { order: OrderView; requestedAt: string }) {
  return (
    <p className="order-refund order-refund--pending" role="status">
      <strong>Desistência em análise:</strong> estamos cancelando o ingresso (desistência solicitada em{' '}
      <span className="numeric">{formatDateTime(requestedAt)}</span>). Em seguida, o valor de {formatBRL(order.amount)}{' '}
      volta para a mesma forma de pagamento. Se o ingresso já tiver sido usado na entrada do evento, a desistência não é
      possível e avisaremos você por e-mail.
    </p>
  );
}

/** Where the order's money is: on its way back (since the request), or back. */
export function OrderRefund({ order, refund }: { order: OrderView; refund: OrderRefundView }) {
  const amount = formatBRL(order.amount);
  if (!refund.pending) {
    return (
      <p className="order-refund" role="status">
        {Number(order.amount) > 0
          ? `${WHY[refund.reason]}: o valor de ${amount} foi devolvido para a mesma forma de pagamento.`
          : `${WHY[refund.reason]}.`}
      </p>
    );
  }
  return (
    <p className="order-refund order-refund--pending" role="status">
      <strong>Reembolso em andamento:</strong> o valor de {amount} volta para a mesma forma de pagamento
      {refund.requestedAt && (
        <>
          {' '}
          (solicitado em <span className="numeric">{formatDateTime(refund.requestedAt)}</span>)
        </>
      )}
      . O prazo para aparecer no extrato depende do seu banco ou da operadora do cartão.
    </p>
  );
}
