import { Router } from '@koa/router';
import { notFound, parseInput, type ServiceAuth } from '@ticketing/platform';
import {
  courtesyCodeField,
  promoQuoteQuerySchema,
  promoUseRequestSchema,
  type PromoQuote,
  type PromoUseRelease,
} from '@ticketing/proto';
import { findAttachment } from '../data/jobs-repository.ts';
import { isUuid, type CourtesyDeps } from '../domain/deps.ts';
import { givePromoUseBack, quotePromo, takePromoUse } from '../domain/promo.ts';

/** For the other services (the gateway does not route /internal): promotional uses for orders, files for mail. */
export function internalRoutes(deps: CourtesyDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal' });

  const orders = auth.require(['orders']);

  router.get('/promo-links/:code', orders, async (ctx) => {
    const { eventId } = parseInput(promoQuoteQuerySchema, ctx.query);
    const code = parseInput(courtesyCodeField, ctx.params.code);
    ctx.body = (await quotePromo(deps, code, eventId)) satisfies PromoQuote;
  });

  router.put('/promo-uses/:orderId', orders, async (ctx) => {
    const { code, eventId } = parseInput(promoUseRequestSchema, ctx.request.body);
    ctx.body = (await takePromoUse(deps, { orderId: ctx.params.orderId!, code, eventId })) satisfies PromoQuote;
  });

  router.delete('/promo-uses/:orderId', orders, async (ctx) => {
    ctx.body = { released: await givePromoUseBack(deps, ctx.params.orderId!) } satisfies PromoUseRelease;
  });

  router.get('/attachments/:id', auth.require(['mail']), async (ctx) => {
    const id = ctx.params.id!;
    const file = isUuid(id) ? await findAttachment(deps.db, id) : undefined;
    if (!file) throw notFound('Anexo não encontrado');
    ctx.type = file.content_type;
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    ctx.body = file.content;
  });

  return router;
}
