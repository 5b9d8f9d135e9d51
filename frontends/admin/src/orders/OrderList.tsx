import { useCallback } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrderSearchAnswer } from '@ticketing/proto';
import { useFailureToast } from '@ticketing/shared';
import { OrderSearchBox } from './OrderSearchBox.tsx';
import { ORDER_LIST } from './OrderTable.tsx';
import { orderSearchKey, type OrderSearch } from './queries.ts';
import { SearchedTable } from '../lib/SearchedTable.tsx';
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
      <SearchedTable list={ORDER_LIST} query={orders} filtered={search.q !== ''} search={search} go={go} />
    </>
  );
}
