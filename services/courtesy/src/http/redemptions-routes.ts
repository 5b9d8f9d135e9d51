import { Router } from '@koa/router';
import { attachment, CSV_CONTENT_TYPE, parseInput, requireRole, type TokenVerifier } from '@ticketing/platform';
import { courtesyLinkIdParamSchema, pageQuerySchema } from '@ticketing/proto';
import type { CourtesyDeps } from '../domain/deps.ts';
import { redemptionsExport, redemptionsPage } from '../domain/redemptions-report.ts';
import { redemptionsCsv, redemptionsFileName, toRedemptionsView } from './redemption-views.ts';

/** Who redeemed each link, for those who manage courtesy links: a paged list, and the whole of it as a spreadsheet. */
export function redemptionRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/courtesy-links/:id' });
  const manager = requireRole(verifyToken, ['courtesyManager']);

  router.get('/redemptions', manager, async (ctx) => {
    const { id } = parseInput(courtesyLinkIdParamSchema, ctx.params);
    const { page } = parseInput(pageQuerySchema, ctx.query);
    const { link, rows, totalPages } = await redemptionsPage(deps, id, page);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toRedemptionsView(link, rows, page, totalPages);
  });

  router.get('/redemptions.csv', manager, async (ctx) => {
    const { id } = parseInput(courtesyLinkIdParamSchema, ctx.params);
    const { link, rows } = await redemptionsExport(deps, id);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', attachment(redemptionsFileName(link)));
    ctx.type = CSV_CONTENT_TYPE;
    ctx.body = redemptionsCsv(rows);
  });

  return router;
}
