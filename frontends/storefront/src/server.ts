/**
 * The storefront's pages as the server renders them: the same components the browser loads, the API reads their
 * first screen needs, and their `<head>`. The shell's server module composes them into the page.
 */
import type { EventView } from '@ticketing/proto';
import type { ServerPage } from '@ticketing/shared';
import { eventQueryKey, eventsQueryKey } from './events/queries.ts';
import { certificateHead } from './certificates/head.ts';
import { certificateQueryKey } from './certificates/queries.ts';
import Certificate from './pages/Certificate.tsx';
import EventDetail from './pages/EventDetail.tsx';
import Events from './pages/Events.tsx';
import Home from './pages/Home.tsx';
import { eventHead, missingEventHead, siteHead } from './seo.ts';

export const serverPages = {
  'storefront/Home': {
    Page: Home,
    queries: () => [eventsQueryKey()],
    head: ({ origin }) => siteHead('Início', '/', origin),
  },
  'storefront/Events': {
    Page: Events,
    queries: ({ search }) => [eventsQueryKey(search.get('q') ?? '')],
    head: ({ origin }) => siteHead('Eventos', '/eventos', origin),
  },
  'storefront/EventDetail': {
    Page: EventDetail,
    queries: ({ params }) => [eventQueryKey(params.id ?? '')],
    head: ({ params, origin }, data) => {
      const event = data.getQueryData<EventView>(eventQueryKey(params.id ?? ''));
      return event ? eventHead(event, origin) : missingEventHead();
    },
    // The code's price is checked in the browser: until then the page shows the normal one.
    unfinished: ({ search }) => search.has('promo'),
  },
  'storefront/Certificate': {
    Page: Certificate,
    queries: ({ params }) => [certificateQueryKey(params.code ?? '')],
    head: ({ params }, data) =>
      certificateHead(params.code ?? '', data.getQueryData(certificateQueryKey(params.code ?? ''))),
  },
} satisfies Record<string, ServerPage>;
