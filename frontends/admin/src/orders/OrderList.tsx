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
  const search: OrderSearch = { q: params.get('q') ?? '', company: params.get('company') === 'true', page };
  return { search, go };
}

/** /admin/pedidos: every order, newest first, or those the search finds. */
export function OrderList() {
  const { search, go } = useOrderSearch();
  const orders = useQuery<OrderSearchAnswer>({ queryKey: orderSearchKey(search), placeholderData: keepPreviousData });
  useFailureToast(orders.error, 'Erro ao buscar pedidos');
  const { company } = search;
  const searchFor = useCallback((q: string) => go({ q, company, page: 1 }), [go, company]);

  return (
    <>
      <p className="admin-lead">
        Encontre um pedido pelo número ou id, uma pessoa pelo e-mail, CPF ou nome, ou uma empresa pelo CNPJ ou razão
        social, e veja tudo o que aconteceu com o pedido.
      </p>
      <OrderSearchBox
        q={search.q}
        onChange={searchFor}
        company={company}
        onCompanyChange={(only) => go({ q: search.q, company: only, page: 1 })}
      />
      <SearchedTable list={ORDER_LIST} query={orders} filtered={search.q !== '' || company} search={search} go={go} />
    </>
  );
}
