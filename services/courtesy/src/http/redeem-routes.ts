import { Router } from '@koa/router';
import { parseInput, requireUser, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import { redeemCourtesyFormSchema } from '@ticketing/proto';
import type { CourtesyDeps } from '../domain/deps.ts';
import { redeemCourtesy } from '../domain/redeem.ts';

/** A logged-in guest redeems a free courtesy link with the form of the redemption page. */
export function redeemRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/courtesy' });

  router.post('/redeem', requireUser(verifyToken), async (ctx) => {
    const form = parseInput(redeemCourtesyFormSchema, ctx.request.body);
    const { redemptionId, link } = await redeemCourtesy(deps, ctx.state.user as AuthUser, form);
    ctx.status = 201;
    ctx.body = {
      message: 'Cortesia resgatada com sucesso!',
      redemptionId,
      event: { id: link.eventId, title: link.event.title },
    };
  });

  return router;
}
