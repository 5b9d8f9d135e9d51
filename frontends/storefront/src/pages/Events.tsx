import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '@ticketing/shared/router';
import { Page, useDebounced } from '@ticketing/shared';
import { EventGrid, EventGridSkeleton } from '../events/EventGrid.tsx';
import { EventsAnswer } from '../events/EventsAnswer.tsx';
import { useEvents } from '../events/queries.ts';
import { SearchBox } from '../events/SearchBox.tsx';

const SEARCH_DELAY_MS = 300;

/** /eventos: every upcoming event, searchable; the search lives in the address (?q=) so it can be shared. */
export default function Events() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const settled = useDebounced(typed.trim(), SEARCH_DELAY_MS);
  const events = useEvents(q);

  // Typing reaches the address once the visitor pauses...
  const written = useRef(q);
  useEffect(() => {
    if (settled === written.current) return;
    written.current = settled;
    setParams(settled ? { q: settled } : {}, { replace: true });
  }, [settled, setParams]);
  // ...and an address changed from elsewhere (back, a link to /eventos) reaches the box.
  useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    setTyped(q);
  }, [q]);

  return (
    <Page title="Eventos" heading="Todos os eventos">
      <SearchBox value={typed} onChange={setTyped} />
      <EventsAnswer
        events={events}
        // An empty answer to the previous search says nothing about this one: it waits like a first load.
        loading={events.isPending || (events.isPlaceholderData && events.data.length === 0)}
        skeleton={<EventGridSkeleton />}
        empty={q ? 'Nenhum evento encontrado com os termos pesquisados.' : 'Nenhum evento disponível no momento.'}
      >
        {(list) => (
          <>
            <p className="events-page__count" role="status">
              {list.length === 1 ? '1 evento' : `${list.length} eventos`}
            </p>
            <EventGrid events={list} busy={events.isPlaceholderData} />
          </>
        )}
      </EventsAnswer>
    </Page>
  );
}
