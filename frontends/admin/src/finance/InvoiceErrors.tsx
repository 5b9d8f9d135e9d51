import { useQuery } from '@tanstack/react-query';
import { Link } from '@ticketing/shared/router';
import type { InvoiceListAnswer, InvoiceRow } from '@ticketing/proto';
import { formatBRL, formatDateTime, useFailureToast } from '@ticketing/shared';
import { CardTable, CardTableSkeleton } from '../lib/CardTable.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { INVOICE_ERRORS_KEY } from './queries.ts';

const COLUMNS = ['Pedido', 'Motivo', 'Valor', 'Data'] as const;

function InvoiceErrorRow({ invoice }: { invoice: InvoiceRow }) {
  return (
    <tr>
      <th scope="row" data-label={COLUMNS[0]} className="card-table__title numeric card-table__nowrap">
        <Link to={`/admin/pedidos/${invoice.orderId}`}>{invoice.orderNumber ?? invoice.orderId}</Link>
      </th>
      <td data-label={COLUMNS[1]}>{invoice.reason ?? 'Sem motivo informado pelo provedor'}</td>
      <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
        {formatBRL(invoice.value)}
      </td>
      <td data-label={COLUMNS[3]} className="numeric card-table__nowrap">
        <time dateTime={invoice.updatedAt}>{formatDateTime(invoice.updatedAt)}</time>
      </td>
    </tr>
  );
}

/** 'Notas fiscais com erro': those the city or the provider refused, newest first, each leading to its order. */
export function InvoiceErrors() {
  const invoices = useQuery<InvoiceListAnswer>({ queryKey: INVOICE_ERRORS_KEY, staleTime: 0 });
  useFailureToast(invoices.error, 'Erro ao carregar as notas fiscais');
  return (
    <section className="finance-section" aria-labelledby="invoice-errors-title">
      <h2 id="invoice-errors-title" className="finance-section__title">
        Notas fiscais com erro
      </h2>
      {invoices.isPending ? (
        <CardTableSkeleton columns={COLUMNS} label="Carregando notas fiscais com erro" />
      ) : !invoices.data ? (
        <LoadFailure
          message="Não foi possível carregar as notas fiscais."
          error={invoices.error}
          onRetry={() => invoices.refetch()}
        />
      ) : invoices.data.invoices.length === 0 ? (
        <p className="list-message">Nenhuma nota fiscal com erro.</p>
      ) : (
        <CardTable columns={COLUMNS} caption="Notas fiscais com erro" busy={invoices.isFetching}>
          {invoices.data.invoices.map((invoice) => (
            <InvoiceErrorRow key={invoice.invoiceId ?? invoice.orderId} invoice={invoice} />
          ))}
        </CardTable>
      )}
    </section>
  );
}
