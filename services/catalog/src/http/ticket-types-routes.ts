import { Router } from '@koa/router';
import { parseParams, type ServiceAuth } from '@ticketing/platform';
import { eventParamsSchema, type EventTicketTypes } from '@ticketing/proto';
import { getEvent } from '../domain/browse-events.ts';
import type { CatalogDeps } from '../domain/catalog-event.ts';

/** Every type an event sells, hidden ones too, for courtesy (the type a link names); the gateway does not route /internal. */
export function ticketTypeRoutes(deps: CatalogDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/events/:id/ticket-types' });
  router.use(auth.require(['courtesy']));

  router.get('/', async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    const event = await getEvent(deps, id);
    ctx.body = {
      ticketTypes: event.ticketTypes.map(({ id, name, hidden, requiresDocument }) => ({
        id,
        name,
        hidden,
        requiresDocument,
      })),
    } satisfies EventTicketTypes;
  });

  return router;
}
