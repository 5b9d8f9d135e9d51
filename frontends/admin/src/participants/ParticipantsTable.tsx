import type { ParticipantView } from '@ticketing/proto';
import { Badge, formatDateTime, formatTime, paymentLabel } from '@ticketing/shared';
import { ticketState, type ParticipantsSession } from './participants.ts';
import { ResendTicket } from './ResendTicket.tsx';
import { ResetTicket } from './ResetTicket.tsx';
import { DataTable } from '../lib/DataTable.tsx';

interface ParticipantsTableProps {
  tickets: ParticipantView[];
  /** With several sessions, a column per session: when the ticket came in to it, and its reset there. */
  sessions: readonly ParticipantsSession[];
  busy: boolean;
}

/** One page of the event's tickets, with what may be done to each: a cancelled ticket admits nobody, so has none. */
export function ParticipantsTable({ tickets, sessions, busy }: ParticipantsTableProps) {
  const entrances = sessions.length > 0 ? sessions.map((session) => `Entrada — ${session.label}`) : ['Entrada'];
  return (
    <DataTable
      caption="Participantes do evento"
      columns={['Nome', 'E-mail', 'Tipo', 'CPF', 'Pedido', 'Pagamento', 'Situação', ...entrances]}
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
            <td>{ticket.ticketType?.name ?? '—'}</td>
            <td className="numeric data-table__nowrap">{ticket.cpf ?? '—'}</td>
            <td className="numeric data-table__nowrap">{ticket.orderNumber}</td>
            <td>{paymentLabel(ticket.paymentMethod)}</td>
            <td>
              <Badge tone={state.tone}>{state.label}</Badge>
            </td>
            {sessions.length === 0 ? (
              <td className="numeric data-table__nowrap">
                {ticket.checkedInAt ? (
                  <time dateTime={ticket.checkedInAt}>{formatDateTime(ticket.checkedInAt)}</time>
                ) : (
                  '—'
                )}
              </td>
            ) : (
              sessions.map((session) => <SessionEntrance key={session.id} ticket={ticket} session={session} />)
            )}
            <td>
              {ticket.status === 'valid' && (
                <div className="data-table__actions">
                  <ResendTicket ticket={ticket} />
                  {ticket.checkedInAt && sessions.length === 0 && <ResetTicket ticket={ticket} />}
                </div>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** When the ticket came in to one session ('—' while not), and the reset of that entrance. */
function SessionEntrance({ ticket, session }: { ticket: ParticipantView; session: ParticipantsSession }) {
  const at = ticket.admissions[session.id];
  return (
    <td className="numeric data-table__nowrap">
      {at ? (
        <div className="wrap-row participants-entrance">
          <time dateTime={at}>{formatTime(at)}</time>
          {ticket.status === 'valid' && <ResetTicket ticket={ticket} session={session} />}
        </div>
      ) : (
        '—'
      )}
    </td>
  );
}
