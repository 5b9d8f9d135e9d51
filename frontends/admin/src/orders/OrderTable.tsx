import { Link, useLocation } from '@ticketing/shared/router';
import type { OrderSearchAnswer, OrderSearchRow } from '@ticketing/proto';
import { Badge, formatBRL, formatDateTime, paymentMethodOf, statusOf } from '@ticketing/shared';
import type { SearchedList } from '../lib/SearchedTable.tsx';

const COLUMNS = ['Pedido', 'Comprador', 'CPF', 'Empresa', 'Evento', 'Valor', 'Pagamento', 'Situação', 'Data'] as const;

/** Where the order's page leads back to: this list, searched as it is now. */
export interface BackToSearch {
  search: string;
}

function OrderRow({ order }: { order: OrderSearchRow }) {
  const { search } = useLocation();
  const status = statusOf(order.status);
  return (
    <tr>
      <th scope="row" data-label={COLUMNS[0]} className="card-table__title numeric card-table__nowrap">
        <Link to={`/admin/pedidos/${order.id}`} state={{ search } satisfies BackToSearch}>
          {order.orderNumber}
        </Link>
      </th>
      <td data-label={COLUMNS[1]}>
        <span className="order-table__name">{order.buyer.name}</span>
        <span className="order-table__email">{order.buyer.email}</span>
      </td>
      <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
        {order.buyer.cpf ?? '—'}
      </td>
      <td data-label={COLUMNS[3]}>
        {order.company ? (
          <>
            <span className="order-table__name">{order.company.name}</span>
            <span className="order-table__cnpj numeric">{order.company.cnpj}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td data-label={COLUMNS[4]}>{order.event.title}</td>
      <td data-label={COLUMNS[5]} className="numeric card-table__nowrap">
        {formatBRL(order.amount)}
      </td>
      <td data-label={COLUMNS[6]}>{paymentMethodOf(order)}</td>
      <td data-label={COLUMNS[7]}>
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td data-label={COLUMNS[8]} className="numeric card-table__nowrap">
        <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
      </td>
    </tr>
  );
}

/** The orders' list: a row each, which reads as a card on a phone (the events' list is described alike). */
export const ORDER_LIST: SearchedList<OrderSearchAnswer> = {
  columns: COLUMNS,
  words: { one: 'pedido', many: 'pedidos', none: 'Nenhum pedido feito ainda.' },
  rows: (answer) => answer.orders.map((order) => <OrderRow key={order.id} order={order} />),
};
