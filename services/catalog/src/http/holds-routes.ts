import { Router } from '@koa/router';
import { parseInput, type ServiceAuth } from '@ticketing/platform';
import { holdSchema, releaseHoldQuerySchema } from '@ticketing/proto';
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
    const { quantity, provisional } = parseInput(holdSchema, ctx.request.body);
    const held = await hold({
      eventId: ctx.params.id!,
      holdId: ctx.params.holdId!,
      quantity,
      provisionalSeconds: provisional ? provisionalSeconds : undefined,
    });
    ctx.body = toHoldView(held);
  });

  router.post('/:holdId/confirm', async (ctx) => {
    await confirmHold(deps, { eventId: ctx.params.id!, holdId: ctx.params.holdId! });
    ctx.status = 204;
  });

  router.delete('/:holdId', async (ctx) => {
    const { keep } = parseInput(releaseHoldQuerySchema, ctx.query);
    ctx.body = toHoldView(await releaseHold(deps, { eventId: ctx.params.id!, holdId: ctx.params.holdId!, keep }));
  });

  return router;
}
