import { Router } from '@koa/router';
import { parseInput, type ServiceAuth } from '@ticketing/platform';
import { holdSchema, releaseHoldQuerySchema } from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { holdSpots, releaseHold } from '../domain/inventory.ts';
import { toHoldView } from './views.ts';

/** Inventory for the services that sell spots (orders, courtesy); the gateway does not route /internal. */
export function holdRoutes(deps: CatalogDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/events/:id/holds' });
  router.use(auth.require(['orders', 'courtesy']));

  router.put('/:holdId', async (ctx) => {
    const { quantity } = parseInput(holdSchema, ctx.request.body);
    ctx.body = toHoldView(await holdSpots(deps, { eventId: ctx.params.id!, holdId: ctx.params.holdId!, quantity }));
  });

  router.delete('/:holdId', async (ctx) => {
    const { keep } = parseInput(releaseHoldQuerySchema, ctx.query);
    ctx.body = toHoldView(await releaseHold(deps, { eventId: ctx.params.id!, holdId: ctx.params.holdId!, keep }));
  });

  return router;
}
