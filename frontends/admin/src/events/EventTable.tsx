import { Link } from '@ticketing/shared/router';
import type { AdminEventPage, AdminEventView } from '@ticketing/proto';
import { Badge, buttonClass, formatBRL, formatDateTime } from '@ticketing/shared';
import type { SearchedList } from '../lib/SearchedTable.tsx';
import { DuplicateEvent } from './DuplicateEvent.tsx';
import { STATUS_BADGES } from './status.ts';

const COLUMNS = ['Evento', 'Data e hora', 'Local', 'Preço', 'Ingressos', 'Situação', 'Ações'] as const;

/** Sold, held and the capacity: "3 vendidos · 1 reservado · capacidade 50". */
function spots(event: AdminEventView): string {
  const sold = `${event.sold} ${event.sold === 1 ? 'vendido' : 'vendidos'}`;
  const held = `${event.held} ${event.held === 1 ? 'reservado' : 'reservados'}`;
  const capacity = event.maxAttendees === null ? 'sem limite' : `capacidade ${event.maxAttendees}`;
  return `${sold} · ${held} · ${capacity}`;
}

function EventRow({ event }: { event: AdminEventView }) {
  const status = STATUS_BADGES[event.status];
  return (
    <tr>
      <th scope="row" data-label={COLUMNS[0]} className="card-table__title">
        <Link to={`/admin/eventos/${event.id}`}>{event.title}</Link>
      </th>
      <td data-label={COLUMNS[1]} className="numeric card-table__nowrap">
        <span>{formatDateTime(event.date)}</span>
        {event.sessions.length > 1 && <span className="event-table__sessions">{event.sessions.length} sessões</span>}
      </td>
      <td data-label={COLUMNS[2]}>{event.location}</td>
      <td data-label={COLUMNS[3]} className="numeric card-table__nowrap">
        {formatBRL(event.price)}
      </td>
      <td data-label={COLUMNS[4]} className="numeric">
        {spots(event)}
      </td>
      <td data-label={COLUMNS[5]}>
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td data-label={COLUMNS[6]}>
        <div className="card-table__actions">
          <Link
            to={`/admin/eventos/${event.id}`}
            className={buttonClass('outline', 'sm')}
            aria-label={`Editar ${event.title}`}
          >
            Editar
          </Link>
          <DuplicateEvent event={event} />
          <Link
            to={`/admin/eventos/${event.id}/participantes`}
            className={buttonClass('ghost', 'sm')}
            aria-label={`Participantes de ${event.title}`}
          >
            Participantes
          </Link>
        </div>
      </td>
    </tr>
  );
}

/** The events' list: a row each, which reads as a card on a phone. */
export const EVENT_LIST: SearchedList<AdminEventPage> = {
  columns: COLUMNS,
  words: { one: 'evento', many: 'eventos', none: 'Nenhum evento criado ainda.' },
  rows: (answer) => answer.events.map((event) => <EventRow key={event.id} event={event} />),
};
