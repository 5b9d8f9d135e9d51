import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@ticketing/shared/router';
import { buttonClass, errorTitles, Pager, SkeletonLines, toastError } from '@ticketing/shared';
import { ListFailed } from './ListFailed.tsx';
import { OrderCard } from './OrderCard.tsx';
import { ordersQueryKey, type OrdersPage } from './order-labels.ts';

/**
 * How often the list is read again while a withdrawal waits for its ticket to be cancelled, or a refund for the
 * provider to give the money back (not one waiting for the buyer's bank details, or refused: those wait on people).
 */
const WITHDRAWAL_POLL_MS = 3000;

const isUnderWay = (order: OrdersPage['orders'][number]) =>
  order.withdrawalRequestedAt !== null || order.refund?.status === 'requested';

/** 'Meus Ingressos': the buyer's orders, newest first, ten per page. */
export function OrdersTab({ isAdmin }: { isAdmin: boolean }) {
  const [page, setPage] = useState(1);
  const listTop = useRef<HTMLDivElement>(null);
  const orders = useQuery<OrdersPage>({
    queryKey: [...ordersQueryKey, { page }],
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.orders.some(isUnderWay) ? WITHDRAWAL_POLL_MS : false),
  });

  useEffect(() => {
    if (orders.error) toastError(errorTitles.generic, orders.error);
  }, [orders.error]);

  function changePage(next: number) {
    setPage(next);
    listTop.current?.scrollIntoView({ block: 'start' });
  }

  if (orders.isPending) return <OrdersSkeleton />;
  if (orders.isError) {
    return (
      <ListFailed title="Não foi possível carregar seus pedidos." error={orders.error} retry={() => orders.refetch()} />
    );
  }
  if (orders.data.orders.length === 0) {
    return (
      <div className="profile-empty">
        <p className="profile-empty__title">Você ainda não tem ingressos.</p>
        <p>Quando você comprar um ingresso ou resgatar uma cortesia, ele aparece aqui.</p>
        <Link to="/eventos" className={buttonClass('accent')}>
          Ver eventos
        </Link>
      </div>
    );
  }
  return (
    <div ref={listTop} className="profile-orders" aria-busy={orders.isPlaceholderData || undefined}>
      <ul className="bare-list orders-list">
        {orders.data.orders.map((order) => (
          <li key={order.id}>
            <OrderCard order={order} isAdmin={isAdmin} />
          </li>
        ))}
      </ul>
      <Pager page={page} totalPages={orders.data.totalPages} onPageChange={changePage} />
    </div>
  );
}

/** The orders' shape while they load (the back office's order page has its own cards). */
function OrdersSkeleton() {
  return (
    <ul className="bare-list orders-list" aria-label="Carregando pedidos">
      {[0, 1, 2].map((index) => (
        <li key={index} className="order-card card">
          <SkeletonLines
            lines={[{ width: '30%' }, { height: '1.5rem', width: '70%' }, { width: '90%' }, { width: '50%' }]}
          />
        </li>
      ))}
    </ul>
  );
}
