import { Link, useParams, useSearchParams } from '@ticketing/shared/router';
import { buttonClass, isApiError, Page } from '@ticketing/shared';
import { BackLink, EventDetailView } from '../event/EventDetailView.tsx';
import { EventDetailSkeleton } from '../event/EventDetailSkeleton.tsx';
import { useEvent } from '../events/queries.ts';
import { LoadError } from '../ui/LoadError.tsx';
import { EmptyState } from '../ui/StatusMessage.tsx';
import '../event/event-detail.css';

/** /event/:id and /events/:id, with an optional ?promo= code. */
export default function EventDetail() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const promoCode = params.get('promo')?.trim().toUpperCase() || null;
  const event = useEvent(id);

  if (event.isSuccess) return <EventDetailView event={event.data} promoCode={promoCode} />;
  if (event.isError && isApiError(event.error, 404)) {
    return (
      <Page title="Evento não encontrado" className="event-detail">
        <EmptyState
          action={
            <Link to="/eventos" className={buttonClass('primary')}>
              Ver todos os eventos
            </Link>
          }
        >
          O evento que você procura não existe ou não está mais disponível.
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page title="Evento" heading={null} className="event-detail">
      <BackLink />
      {event.isError ? (
        <LoadError title="Não foi possível carregar o evento." error={event.error} onRetry={() => event.refetch()} />
      ) : (
        <EventDetailSkeleton />
      )}
    </Page>
  );
}
