import { useParams } from '@ticketing/shared/router';
import { Page } from '@ticketing/shared';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { OrderDetail } from '../orders/OrderDetail.tsx';
import { OrderList } from '../orders/OrderList.tsx';
import '../lib/admin.css';
import '../orders/orders.css';

/** /admin/pedidos (the search) and /admin/pedidos/:id (one order). */
export default function Orders() {
  const { id } = useParams();
  if (id) return <OrderDetail key={id} id={id} />;
  return (
    <Page title="Pedidos e pessoas">
      <BackOfficeNav />
      <OrderList />
    </Page>
  );
}
