import type { QueryClient } from '@tanstack/react-query';
import { SALES_KEY } from '../sales/queries.ts';

/** Every back-office order query starts with this key; its path is `/admin/orders`. */
export const ADMIN_ORDERS_KEY = ['admin', 'orders'] as const;

export interface OrderSearch {
  q: string;
  /** Only orders bought for a company ('Somente empresas'). */
  company: boolean;
  page: number;
}

export const orderSearchKey = ({ q, company, page }: OrderSearch) =>
  [...ADMIN_ORDERS_KEY, { q: q || undefined, company: company || undefined, page }] as const;

export const adminOrderKey = (id: string) => [...ADMIN_ORDERS_KEY, id] as const;

/** After a refund: the order is read again now; the search results and the sales figures when next shown. */
export function refreshAfterRefund(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: adminOrderKey(id) });
  void queryClient.invalidateQueries({
    queryKey: ADMIN_ORDERS_KEY,
    predicate: (query) => typeof query.queryKey[2] === 'object',
    refetchType: 'none',
  });
  void queryClient.invalidateQueries({ queryKey: SALES_KEY, refetchType: 'none' });
}
