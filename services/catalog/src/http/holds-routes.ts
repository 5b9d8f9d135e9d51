import { Router } from '@koa/router';
import { parseInput, parseParams, type ServiceAuth } from '@ticketing/platform';
import { eventParamsSchema, holdSchema, releaseHoldQuerySchema } from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { createHoldQueue } from '../domain/holds.ts';
import { confirmHold, releaseHold } from '../domain/inventory.ts';
import { toHoldView } from './views.ts';

/**
 * Inventory for the services that sell spots (orders, courtesy); the gateway does not route /internal. A provisional
 * hold lasts `provisionalSeconds` unless confirmed.
 */
export function holdRoutes(deps: CatalogDeps, auth: ServiceAuth, provisionalSeconds: number): Router {
  const router = new Router({ prefix: '/internal/events/:id/holds' });
  router.use(auth.require(['orders', 'courtesy']));
  const hold = createHoldQueue(deps);

  router.put('/:holdId', async (ctx) => {
    const { id: eventId } = parseParams(eventParamsSchema, ctx.params);
    const { quantity, provisional, items, includeHidden } = parseInput(holdSchema, ctx.request.body);
    const held = await hold({
      eventId,
      holdId: ctx.params.holdId!,
      quantity,
      provisionalSeconds: provisional ? provisionalSeconds : undefined,
      items: items?.map((item) => item.ticketTypeId),
      includeHidden,
    });
    ctx.body = toHoldView(held);
  });

  router.post('/:holdId/confirm', async (ctx) => {
    const { id: eventId } = parseParams(eventParamsSchema, ctx.params);
    await confirmHold(deps, { eventId, holdId: ctx.params.holdId! });
    ctx.status = 204;
  });

  router.delete('/:holdId', async (ctx) => {
    const { id: eventId } = parseParams(eventParamsSchema, ctx.params);
    const { keep } = parseInput(releaseHoldQuerySchema, ctx.query);
    ctx.body = toHoldView(await releaseHold(deps, { eventId, holdId: ctx.params.holdId!, keep }));
  });

  return router;
}
