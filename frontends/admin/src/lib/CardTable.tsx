import type { ReactNode } from 'react';
import { Skeleton } from '@ticketing/shared';
import { TableHead } from './TableHead.tsx';
import './table.css';
import './card-table.css';

interface CardTableProps {
  /** The column names: the header on wide screens, each cell's label (`data-label`) on a phone. */
  columns: readonly string[];
  /** What the table lists, for screen readers. */
  caption: string;
  busy?: boolean;
  children: ReactNode;
}

/** A table on wide screens whose rows read as cards on a phone; the rows label their cells with `columns`. */
export function CardTable({ columns, caption, busy = false, children }: CardTableProps) {
  return (
    <table className="card-table" aria-busy={busy}>
      <caption className="visually-hidden">{caption}</caption>
      <TableHead columns={columns} />
      <tbody>{children}</tbody>
    </table>
  );
}

/** The table's shape while its first page loads. */
export function CardTableSkeleton({ columns, label }: { columns: readonly string[]; label: string }) {
  return (
    <table className="card-table" aria-label={label}>
      <TableHead columns={columns} />
      <tbody>
        {[0, 1, 2].map((row) => (
          <tr key={row}>
            {columns.map((column) => (
              <td key={column} data-label={column}>
                <Skeleton />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
