import type { CourtesyRedemptionView } from '@ticketing/proto';
import { formatDateTime } from '@ticketing/shared';
import { DataTable } from '../lib/DataTable.tsx';

/**
 * Who redeemed the link and when, newest first. A promotional link's uses are orders whose buyer the orders list
 * names, so they show only the order.
 */
export function RedemptionsTable({ redemptions, busy }: { redemptions: CourtesyRedemptionView[]; busy: boolean }) {
  return (
    <DataTable caption="Resgates do link" columns={['Nome', 'E-mail', 'CPF', 'Resgatado em', 'Pedido']} busy={busy}>
      {redemptions.map((redemption, index) => (
        <tr key={`${redemption.redeemedAt}-${index}`}>
          <th scope="row" className="data-table__name">
            {redemption.name ?? 'Compra com código promocional'}
          </th>
          <td className="data-table__email">{redemption.email ?? '—'}</td>
          <td className="numeric data-table__nowrap">{redemption.cpf ?? '—'}</td>
          <td className="numeric data-table__nowrap">
            <time dateTime={redemption.redeemedAt}>{formatDateTime(redemption.redeemedAt)}</time>
          </td>
          <td className="numeric data-table__nowrap">{redemption.orderNumber ?? '—'}</td>
        </tr>
      ))}
    </DataTable>
  );
}
