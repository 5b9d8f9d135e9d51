import { useQuery } from '@tanstack/react-query';
import { Link } from '@ticketing/shared/router';
import { refundReasonLabels, type RefundAttentionAnswer, type RefundAttentionRow } from '@ticketing/proto';
import { formatBRL, formatDateTime, paymentLabel, useFailureToast } from '@ticketing/shared';
import { CardTable, CardTableSkeleton } from '../lib/CardTable.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { REFUNDS_ATTENTION_KEY } from './queries.ts';
import { RetryRefund } from './RetryRefund.tsx';

const COLUMNS = ['Pedido', 'Comprador', 'Valor', 'Forma de pagamento', 'Recusa do provedor', 'Desde', 'Ações'] as const;

function RefundRow({ refund }: { refund: RefundAttentionRow }) {
  return (
    <tr>
      <th scope="row" data-label={COLUMNS[0]} className="card-table__title numeric card-table__nowrap">
        <Link to={`/admin/pedidos/${refund.orderId}`}>{refund.orderNumber}</Link>
        <span className="finance-table__note">{refund.event.title}</span>
      </th>
      <td data-label={COLUMNS[1]}>
        <span className="finance-table__line">{refund.buyer.name}</span>
        <span className="finance-table__note">{refund.buyer.email}</span>
      </td>
      <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
        {formatBRL(refund.amount)}
      </td>
      <td data-label={COLUMNS[3]}>{paymentLabel(refund.paymentMethod ?? 'courtesy')}</td>
      <td data-label={COLUMNS[4]}>
        <span className="finance-table__line">{refund.refusal}</span>
        <span className="finance-table__note">{refundReasonLabels[refund.reason]}</span>
      </td>
      <td data-label={COLUMNS[5]} className="numeric card-table__nowrap">
        <time dateTime={refund.refusedAt}>{formatDateTime(refund.refusedAt)}</time>
      </td>
      <td data-label={COLUMNS[6]}>
        <div className="card-table__actions">
          <RetryRefund refund={refund} />
        </div>
      </td>
    </tr>
  );
}

/** 'Reembolsos que precisam de atenção': refunds the provider refused, oldest first, each to be tried again. */
export function RefundsAttention() {
  const refunds = useQuery<RefundAttentionAnswer>({ queryKey: REFUNDS_ATTENTION_KEY, staleTime: 0 });
  useFailureToast(refunds.error, 'Erro ao carregar os reembolsos');
  return (
    <section className="finance-section" aria-labelledby="refunds-attention-title">
      <h2 id="refunds-attention-title" className="finance-section__title">
        Reembolsos que precisam de atenção
      </h2>
      {refunds.isPending ? (
        <CardTableSkeleton columns={COLUMNS} label="Carregando reembolsos" />
      ) : !refunds.data ? (
        <LoadFailure
          message="Não foi possível carregar os reembolsos."
          error={refunds.error}
          onRetry={() => refunds.refetch()}
        />
      ) : refunds.data.refunds.length === 0 ? (
        <p className="list-message">Nenhum reembolso precisa de atenção.</p>
      ) : (
        <CardTable columns={COLUMNS} caption="Reembolsos que precisam de atenção" busy={refunds.isFetching}>
          {refunds.data.refunds.map((refund) => (
            <RefundRow key={refund.orderId} refund={refund} />
          ))}
        </CardTable>
      )}
    </section>
  );
}
