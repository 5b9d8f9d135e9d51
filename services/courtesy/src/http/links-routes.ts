import { Router } from '@koa/router';
import { parseInput, parseParams, requireRole, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import {
  courtesyLinkCodeParamsSchema,
  courtesyLinkParamsSchema,
  createCourtesyLinkSchema,
  pageQuerySchema,
} from '@ticketing/proto';
import type { CourtesyDeps } from '../domain/deps.ts';
import { createLink, deactivateLink, listLinks, usableLink } from '../domain/links.ts';
import { toLinkView, toPublicLinkView } from './views.ts';

/** Courtesy links: courtesy managers create, list and deactivate them; anyone may look a code up (the gateway limits the rate). */
export function linkRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/courtesy-links' });
  const manager = requireRole(verifyToken, ['courtesyManager']);

  router.post('/', manager, async (ctx) => {
    const input = parseInput(createCourtesyLinkSchema, ctx.request.body);
    const link = await createLink(deps, ctx.state.user as AuthUser, input);
    ctx.status = 201;
    ctx.body = toLinkView(deps.siteUrl, link);
  });

  router.get('/', manager, async (ctx) => {
    const { page } = parseInput(pageQuerySchema, ctx.query);
    const { links, totalPages } = await listLinks(deps, page);
    ctx.body = { links: links.map((link) => toLinkView(deps.siteUrl, link)), totalPages };
  });

  router.get('/:code', async (ctx) => {
    const { code } = parseInput(courtesyLinkCodeParamsSchema, ctx.params);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toPublicLinkView(await usableLink(deps, code));
  });

  router.delete('/:id', manager, async (ctx) => {
    const { id } = parseParams(courtesyLinkParamsSchema, ctx.params);
    ctx.body = toLinkView(deps.siteUrl, await deactivateLink(deps, id));
  });

  return router;
}
