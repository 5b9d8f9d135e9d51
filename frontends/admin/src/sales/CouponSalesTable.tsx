import type { SalesView } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared';
import { CardTable } from '../lib/CardTable.tsx';

const COLUMNS = ['Cupom', 'Pedidos pagos', 'Desconto'];

/** What each coupon took off the paid orders, the most used first. */
export function CouponSalesTable({ coupons }: { coupons: SalesView['perCoupon'] }) {
  return (
    <CardTable columns={COLUMNS} caption="Descontos por cupom">
      {coupons.map((coupon) => (
        <tr key={coupon.code}>
          <th scope="row" data-label={COLUMNS[0]} className="card-table__title numeric">
            {coupon.code}
          </th>
          <td data-label={COLUMNS[1]} className="numeric">
            {coupon.orders}
          </td>
          <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
            {formatBRL(coupon.discount)}
          </td>
        </tr>
      ))}
    </CardTable>
  );
}
