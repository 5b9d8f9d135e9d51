import { refundMessages, type OrderRefundReason, type OrderRefundView, type OrderView } from '@ticketing/proto';
import { buttonClass, formatBRL, formatDateTime } from '@ticketing/shared';

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

/**
 * Where the order's money is: on its way back (since the request), waiting for the bank account a boleto's refund
 * goes to, refused by the provider (the organisers were told and take it up), or back.
 */
export function OrderRefund({ order, refund }: { order: OrderView; refund: OrderRefundView }) {
  const amount = formatBRL(order.amount);
  if (!refund.pending) {
    const back = Number(order.amount) > 0;
    return (
      <div className="order-refund" role="status">
        {back && <p className="order-refund__title">Reembolso concluído</p>}
        <p>
          {back
            ? `${WHY[refund.reason]}: o valor de ${amount} foi devolvido para a mesma forma de pagamento.`
            : `${WHY[refund.reason]}.`}
        </p>
      </div>
    );
  }
  if (refund.status === 'refused') {
    return (
      <p className="order-refund order-refund--refused" role="status">
        <strong>Reembolso recusado pelo provedor: a organização foi avisada</strong> e vai cuidar da devolução de{' '}
        {amount}.
      </p>
    );
  }
  if (refund.status === 'awaiting_bank_details' && refund.bankDetailsUrl) {
    return (
      <div className="order-refund order-refund--pending stack" role="status">
        <p>
          <strong>Reembolso em andamento:</strong> o pagamento foi feito com boleto, então o valor de {amount} volta por
          transferência para a conta bancária que você informar.
        </p>
        <a
          className={buttonClass('accent', 'md')}
          href={refund.bankDetailsUrl}
          target="_blank"
          rel="noopener noreferrer"
        >
          {refundMessages.refundBankDetails}
        </a>
      </div>
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
