import { useCallback } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrderSearchAnswer } from '@ticketing/proto';
import { Pager, useFailureToast } from '@ticketing/shared';
import { OrderSearchBox } from './OrderSearchBox.tsx';
import { OrderTable, OrderTableSkeleton } from './OrderTable.tsx';
import { orderSearchKey, type OrderSearch } from './queries.ts';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import { useUrlSearch } from '../lib/useUrlSearch.ts';

/** The orders' search, kept in the address. */
function useOrderSearch() {
  const { params, page, go } = useUrlSearch();
  const search: OrderSearch = { q: params.get('q') ?? '', page };
  return { search, go };
}

/** /admin/pedidos: every order, newest first, or those the search finds. */
export function OrderList() {
  const { search, go } = useOrderSearch();
  const orders = useQuery<OrderSearchAnswer>({ queryKey: orderSearchKey(search), placeholderData: keepPreviousData });
  useFailureToast(orders.error, 'Erro ao buscar pedidos');
  const searchFor = useCallback((q: string) => go({ q, page: 1 }), [go]);

  return (
    <>
      <p className="admin-lead">
        Encontre um pedido pelo número ou id, ou uma pessoa pelo e-mail, CPF ou nome, e veja tudo o que aconteceu com o
        pedido.
      </p>
      <OrderSearchBox q={search.q} onChange={searchFor} />
      {orders.isPending ? (
        <OrderTableSkeleton />
      ) : !orders.data ? (
        <LoadFailure message="Não foi possível carregar os pedidos." onRetry={() => orders.refetch()} />
      ) : orders.data.orders.length === 0 ? (
        <p className="list-message">
          {search.q ? 'Nenhum pedido encontrado para esta busca.' : 'Nenhum pedido feito ainda.'}
        </p>
      ) : (
        <>
          {/* A count, the table and its pager, as the events' list shows them. */}
          <p className="list-count" aria-live="polite">
            {orders.data.total === 1 ? '1 pedido' : `${orders.data.total} pedidos`}
          </p>
          <OrderTable orders={orders.data.orders} busy={orders.isPlaceholderData} />
          <Pager
            page={search.page}
            totalPages={orders.data.totalPages}
            onPageChange={(page) => go({ ...search, page })}
          />
        </>
      )}
    </>
  );
}
