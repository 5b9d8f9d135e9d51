import type { ReactNode } from 'react';
import { TableHead } from './TableHead.tsx';
import './table.css';
import './data-table.css';

interface DataTableProps {
  /** Read by screen readers only. */
  caption: string;
  columns: string[];
  /** A last column of buttons, its heading read by screen readers only. */
  actions?: boolean;
  busy: boolean;
  /** The rows. */
  children: ReactNode;
}

/** A wide table of people that scrolls sideways on a phone; faded while the next page loads. */
export function DataTable({ caption, columns, actions = false, busy, children }: DataTableProps) {
  return (
    <div className="surface data-table__scroll">
      <table className="data-table" aria-busy={busy}>
        <caption className="visually-hidden">{caption}</caption>
        <TableHead columns={columns} actions={actions} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
