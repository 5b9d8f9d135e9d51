import { Router } from '@koa/router';
import { requireRole, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { listDoorEvents } from '../domain/door-events.ts';
import { toDoorEventView } from './views.ts';

/** The events a door checks in, for door staff (their assigned ones) and administrators; the gateway routes `/api/door/events` here. */
export function doorRoutes(deps: CatalogDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/door' });

  router.get('/events', requireRole(verifyToken, ['doorStaff', 'admin']), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await listDoorEvents(deps, ctx.state.user as AuthUser)).map(toDoorEventView);
  });

  return router;
}
