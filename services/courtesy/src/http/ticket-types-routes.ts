import { Router } from '@koa/router';
import { parseParams, requireRole, type TokenVerifier } from '@ticketing/platform';
import { eventParamsSchema, type CourtesyEventTicketTypes } from '@ticketing/proto';
import type { CourtesyDeps } from '../domain/deps.ts';
import { ticketTypesOf } from '../domain/links.ts';

/** The types a courtesy manager may make a link of, hidden ones too (the back office shows no one else's). */
export function ticketTypeRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/courtesy/events/:id/ticket-types' });

  router.get('/', requireRole(verifyToken, ['courtesyManager']), async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ticketTypes: await ticketTypesOf(deps, id) } satisfies CourtesyEventTicketTypes;
  });

  return router;
}
