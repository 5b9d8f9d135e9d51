import { Fragment } from 'react';
import type { SalesTypeRow } from '@ticketing/proto';
import { formatBRL } from '@ticketing/shared';
import { CardTable } from '../lib/CardTable.tsx';

const COLUMNS = ['Tipo de ingresso', 'Ingressos', 'Receita bruta'];

/** A type's rows by lot; none for a type sold only without lots (its one row is the type's). */
const lotsOf = (type: SalesTypeRow) =>
  type.perLot.length === 1 && type.perLot[0]!.lotName === null ? [] : type.perLot;

/** A type's or a lot's cells: its valid tickets and what they were sold for. */
function SoldCells({ part }: { part: { tickets: number; gross: string } }) {
  return (
    <>
      <td data-label={COLUMNS[1]} className="numeric">
        {part.tickets}
      </td>
      <td data-label={COLUMNS[2]} className="numeric card-table__nowrap">
        {formatBRL(part.gross)}
      </td>
    </>
  );
}

/** One event's valid tickets by type, each followed by its lots (the lot they were sold at), indented. */
export function TypeSalesTable({ types }: { types: SalesTypeRow[] }) {
  return (
    <CardTable columns={COLUMNS} caption="Vendas por tipo de ingresso">
      {types.map((type) => (
        <Fragment key={type.ticketTypeId}>
          <tr className="type-sales__type">
            <th scope="row" data-label={COLUMNS[0]} className="card-table__title">
              {type.typeName}
            </th>
            <SoldCells part={type} />
          </tr>
          {lotsOf(type).map((lot) => (
            <tr key={lot.lotName ?? ''} className="type-sales__lot">
              <th scope="row" data-label="Lote">
                <span className="visually-hidden">{type.typeName}, </span>
                {lot.lotName ?? 'Sem lote'}
              </th>
              <SoldCells part={lot} />
            </tr>
          ))}
        </Fragment>
      ))}
    </CardTable>
  );
}
