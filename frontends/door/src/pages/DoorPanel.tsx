import { useSearchParams } from '@ticketing/shared/router';
import { Page, Skeleton, useFailureToast } from '@ticketing/shared';
import { doorSessionOf, eventSessions } from '../door/door-session.ts';
import { useDoorEvents } from '../door/events.ts';
import { DoorPanel } from '../door-panel/DoorPanel.tsx';
import { EventChoice } from '../door-panel/EventChoice.tsx';
import { SessionChoice } from '../scanner/SessionChoice.tsx';

/** /painel-porta: how the door of an event is going, live, large enough for a laptop or a TV by the entrance. */
export default function DoorPanelPage() {
  const events = useDoorEvents();
  useFailureToast(events.error, 'Erro');
  // The event and session followed stay in the address: a screen left on a TV reloads onto the same ones.
  const [params, setParams] = useSearchParams();
  const eventId = params.get('evento') || events.data?.[0]?.id || '';
  const event = events.data?.find((found) => found.id === eventId);
  const sessions = event ? eventSessions(event) : [];
  const sessionId = doorSessionOf(params.get('sessao'), event && sessions);

  return (
    <Page title="Painel da Portaria" className="door-panel-page">
      <p className="door-panel-page__lead">
        Quantas pessoas já entraram, em que ritmo e por qual aparelho, atualizado ao vivo.
      </p>
      {events.isPending && <Skeleton className="door-panel-page__event-skeleton" />}
      {events.isError && (
        <p className="door-panel__empty" role="alert">
          Não foi possível carregar os eventos. Recarregue a página para tentar novamente.
        </p>
      )}
      {events.data?.length === 0 && <p className="door-panel__empty">Nenhum evento hoje nem nos próximos dias.</p>}
      {events.data && events.data.length > 0 && (
        <EventChoice
          events={events.data}
          eventId={eventId}
          onChange={(next) => setParams({ evento: next }, { replace: true })}
        />
      )}
      {sessionId && (
        <SessionChoice
          label="Sessão"
          className="door-panel-page__event"
          sessions={sessions}
          sessionId={sessionId}
          onChange={(next) => setParams({ evento: eventId, sessao: next }, { replace: true })}
        />
      )}
      {eventId && <DoorPanel eventId={eventId} sessionId={sessionId} sessions={sessions} />}
    </Page>
  );
}
