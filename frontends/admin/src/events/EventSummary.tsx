import { Link } from '@ticketing/shared/router';
import type { AdminEventView } from '@ticketing/proto';
import { Badge, buttonClass, formatDateTime } from '@ticketing/shared';
import { CancelEvent } from './CancelEvent.tsx';
import { STATUS_BADGES } from './status.ts';
import { CountFacts } from '../lib/Fact.tsx';

/** Only an event still to come, and not cancelled yet, can be cancelled. */
const cancellable = (event: AdminEventView) => !event.cancelledAt && new Date(event.date).getTime() > Date.now();

/** Above an existing event's form: its status, its sales, where else to look at it, and its cancellation. */
export function EventSummary({ event }: { event: AdminEventView }) {
  const status = STATUS_BADGES[event.status];
  return (
    <section className="event-summary" aria-label="Resumo do evento">
      <Badge tone={status.tone}>{status.label}</Badge>
      <CountFacts
        className="event-summary__facts"
        counts={{ Vendidos: event.sold, Reservados: event.held, Capacidade: event.maxAttendees ?? 'sem limite' }}
      />
      <div className="event-summary__links">
        <Link to={`/admin/eventos/${event.id}/participantes`} className={buttonClass('outline', 'sm')}>
          Participantes
        </Link>
        <Link to={`/admin/eventos/${event.id}/certificados`} className={buttonClass('outline', 'sm')}>
          Certificados
        </Link>
        {event.published && !event.cancelledAt && (
          <Link to={`/event/${event.id}`} className={buttonClass('ghost', 'sm')}>
            Ver na loja
          </Link>
        )}
        {cancellable(event) && <CancelEvent event={event} />}
      </div>
      {event.cancelledAt && (
        <p className="event-summary__cancelled">
          Cancelado em {formatDateTime(event.cancelledAt)}. Motivo: {event.cancelReason}
        </p>
      )}
    </section>
  );
}
