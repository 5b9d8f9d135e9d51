import { Link } from '@ticketing/shared/router';
import type { SalesEventRow } from '@ticketing/proto';
import { formatBRL, formatDateTime } from '@ticketing/shared';
import { CardTable } from '../lib/CardTable.tsx';
import { salesPath } from './queries.ts';

const COLUMNS = ['Evento', 'Data', 'Receita bruta', 'Receita líquida', 'Ingressos pagos', 'Cortesias', 'Entradas'];

/** Every event with orders, soonest first, each leading to its own figures; on a phone each row reads as a card. */
export function EventSalesTable({ events }: { events: SalesEventRow[] }) {
  return (
    <CardTable columns={COLUMNS} caption="Vendas por evento">
      {events.map((event) => (
        <tr key={event.eventId}>
          <th scope="row" data-label={COLUMNS[0]} className="card-table__title">
            <Link to={salesPath(event.eventId)}>{event.title}</Link>
          </th>
          <td data-label={COLUMNS[1]} className="numeric card-table__nowrap">
            {formatDateTime(event.date)}
          </td>
          <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
            {formatBRL(event.gross)}
          </td>
          <td data-label={COLUMNS[3]} className="numeric card-table__nowrap">
            {formatBRL(event.net)}
          </td>
          <td data-label={COLUMNS[4]} className="numeric">
            {event.paid}
          </td>
          <td data-label={COLUMNS[5]} className="numeric">
            {event.courtesy}
          </td>
          <td data-label={COLUMNS[6]} className="numeric">
            {event.checkedIn}
          </td>
        </tr>
      ))}
    </CardTable>
  );
}
