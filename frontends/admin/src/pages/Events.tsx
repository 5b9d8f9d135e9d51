import { useCallback } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@ticketing/shared/router';
import { EVENT_STATUSES, type AdminEventPage, type EventStatus } from '@ticketing/proto';
import { buttonClass, Page, useFailureToast } from '@ticketing/shared';
import { EventFilters, type EventFilter } from '../events/EventFilters.tsx';
import { EVENT_LIST } from '../events/EventTable.tsx';
import { adminEventListKey } from '../events/queries.ts';
import { BackOfficeNav } from '../lib/BackOfficeNav.tsx';
import { SearchedTable } from '../lib/SearchedTable.tsx';
import { useUrlSearch } from '../lib/useUrlSearch.ts';
import '../lib/admin.css';
import '../events/events.css';

const isStatus = (value: string | null): value is EventStatus => EVENT_STATUSES.includes(value as EventStatus);

/** The events' search, kept in the address. */
function useEventSearch() {
  const { params, page, go } = useUrlSearch();
  const status = params.get('status');
  const search = { q: params.get('q') ?? '', status: isStatus(status) ? status : ('' as const), page };
  return { search, go };
}

/** /admin/eventos: every event, drafts and past ones included, with its sales and what can be done with it. */
export default function Events() {
  const { search, go } = useEventSearch();
  const events = useQuery<AdminEventPage>({ queryKey: adminEventListKey(search), placeholderData: keepPreviousData });
  useFailureToast(events.error, 'Erro');
  const { q, status } = search;
  const filter = useCallback((next: EventFilter) => go({ ...next, page: 1 }), [go]);

  return (
    <Page title="Gerenciar Eventos">
      <BackOfficeNav />
      <div className="events-admin__top">
        <p className="admin-lead">Crie, edite e publique eventos e acompanhe as vendas de cada um.</p>
        <Link to="/admin/eventos/novo" className={buttonClass('accent')}>
          Novo evento
        </Link>
      </div>
      <EventFilters filter={{ q, status }} onChange={filter} />
      <SearchedTable list={EVENT_LIST} query={events} filtered={Boolean(q || status)} search={search} go={go} />
    </Page>
  );
}
