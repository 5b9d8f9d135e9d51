import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@ticketing/shared/router';
import type { AdminEventView } from '@ticketing/proto';
import { buttonClass, isApiError, Page, Skeleton, useFailureToast } from '@ticketing/shared';
import { DoorStaff } from '../door-staff/DoorStaff.tsx';
import { EventForm } from '../events/EventForm.tsx';
import { EventSummary } from '../events/EventSummary.tsx';
import { adminEventKey } from '../events/queries.ts';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { LoadFailure } from '../lib/LoadFailure.tsx';
import '../lib/admin.css';
import '../mass-send/mass-send.css';
import '../events/events.css';

function ExistingEvent({ id }: { id: string }) {
  const event = useQuery<AdminEventView>({ queryKey: adminEventKey(id) });
  useFailureToast(event.error, 'Erro');
  if (event.isPending) {
    return (
      <div className="card event-form" aria-label="Carregando evento">
        {[0, 1, 2, 3].map((line) => (
          <Skeleton key={line} className="event-form__skeleton" />
        ))}
      </div>
    );
  }
  if (!event.data) {
    if (!isApiError(event.error, 404)) {
      return <LoadFailure message="Não foi possível carregar o evento." onRetry={() => event.refetch()} />;
    }
    return (
      <div className="list-message" role="alert">
        <p>{event.error.message}</p>
        <Link to="/admin/eventos" className={buttonClass('outline')}>
          Voltar para a lista
        </Link>
      </div>
    );
  }
  return (
    <>
      <EventSummary event={event.data} />
      <EventForm key={id} event={event.data} />
      {!event.data.cancelledAt && <DoorStaff eventId={id} />}
    </>
  );
}

/** /admin/eventos/novo and /admin/eventos/:id: an event's fields, publication and image, and its door staff. */
export default function EventEditor() {
  const { id } = useParams();
  return (
    <Page title={id ? 'Editar evento' : 'Novo evento'}>
      <BackOfficeNav />
      {id ? <ExistingEvent id={id} /> : <EventForm />}
    </Page>
  );
}
