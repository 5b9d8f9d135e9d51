import { Router } from '@koa/router';
import { requireUser, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import type { TicketsDeps } from '../domain/deps.ts';
import { myTickets } from '../domain/my-tickets.ts';

/** The signed-in person's own tickets, whoever bought them. */
export function myTicketsRoutes(deps: TicketsDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/tickets' });

  router.get('/mine', requireUser(verifyToken), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await myTickets(deps, ctx.state.user as AuthUser);
  });

  return router;
}
