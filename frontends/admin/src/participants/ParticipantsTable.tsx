import type { ParticipantView } from '@ticketing/proto';
import { Badge, formatDateTime, paymentLabel } from '@ticketing/shared';
import { ticketState } from './participants.ts';
import { ResendTicket } from './ResendTicket.tsx';
import { ResetTicket } from './ResetTicket.tsx';
import { DataTable } from '../lib/DataTable.tsx';

/** One page of the event's tickets, with what may be done to each: a cancelled ticket admits nobody, so has none. */
export function ParticipantsTable({ tickets, busy }: { tickets: ParticipantView[]; busy: boolean }) {
  return (
    <DataTable
      caption="Participantes do evento"
      columns={['Nome', 'E-mail', 'CPF', 'Pedido', 'Pagamento', 'Situação', 'Entrada']}
      actions
      busy={busy}
    >
      {tickets.map((ticket) => {
        const state = ticketState(ticket);
        return (
          <tr key={ticket.ticketId}>
            <th scope="row" className="data-table__name">
              {ticket.holderName}
            </th>
            <td className="data-table__email">{ticket.holderEmail}</td>
            <td className="numeric data-table__nowrap">{ticket.cpf ?? '—'}</td>
            <td className="numeric data-table__nowrap">{ticket.orderNumber}</td>
            <td>{paymentLabel(ticket.paymentMethod)}</td>
            <td>
              <Badge tone={state.tone}>{state.label}</Badge>
            </td>
            <td className="numeric data-table__nowrap">
              {ticket.checkedInAt ? (
                <time dateTime={ticket.checkedInAt}>{formatDateTime(ticket.checkedInAt)}</time>
              ) : (
                '—'
              )}
            </td>
            <td>
              {ticket.status === 'valid' && (
                <div className="data-table__actions">
                  <ResendTicket ticket={ticket} />
                  {ticket.checkedInAt && <ResetTicket ticket={ticket} />}
                </div>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
