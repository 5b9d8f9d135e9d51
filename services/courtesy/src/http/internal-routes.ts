import { Router } from '@koa/router';
import { notFound, parseInput, parseParams, type ServiceAuth } from '@ticketing/platform';
import {
  attachmentParamsSchema,
  couponUseParamsSchema,
  couponUseRequestSchema,
  courtesyCodeField,
  courtesyMessages,
  promoQuoteQuerySchema,
  promoUseParamsSchema,
  promoUseRequestSchema,
  type CouponQuote,
  type couponUseReleaseSchema,
  type PromoQuote,
  type PromoUseRelease,
} from '@ticketing/proto';
import type { z } from 'zod';
import { findAttachment } from '../data/jobs-repository.ts';
import { giveCouponUseBack, takeCouponUse } from '../domain/coupon-uses.ts';
import type { CourtesyDeps } from '../domain/deps.ts';
import { givePromoUseBack, quotePromo, takePromoUse } from '../domain/promo.ts';

/**
 * For the other services (the gateway does not route /internal): promotional and coupon uses for orders, files for
 * mail.
 */
export function internalRoutes(deps: CourtesyDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal' });

  const orders = auth.require(['orders']);

  router.get('/promo-links/:code', orders, async (ctx) => {
    const { eventId } = parseInput(promoQuoteQuerySchema, ctx.query);
    const code = parseInput(courtesyCodeField, ctx.params.code);
    ctx.body = (await quotePromo(deps, code, eventId)) satisfies PromoQuote;
  });

  router.put('/promo-uses/:orderId', orders, async (ctx) => {
    const { orderId } = parseParams(promoUseParamsSchema, ctx.params);
    const { code, eventId } = parseInput(promoUseRequestSchema, ctx.request.body);
    ctx.body = (await takePromoUse(deps, { orderId, code, eventId })) satisfies PromoQuote;
  });

  router.delete('/promo-uses/:orderId', orders, async (ctx) => {
    const { orderId } = parseParams(promoUseParamsSchema, ctx.params);
    ctx.body = { released: await givePromoUseBack(deps, orderId) } satisfies PromoUseRelease;
  });

  router.put('/coupon-uses/:orderId', orders, async (ctx) => {
    const { orderId } = parseParams(couponUseParamsSchema, ctx.params);
    const request = parseInput(couponUseRequestSchema, ctx.request.body);
    ctx.body = (await takeCouponUse(deps, { orderId, ...request })) satisfies CouponQuote;
  });

  router.delete('/coupon-uses/:orderId', orders, async (ctx) => {
    const { orderId } = parseParams(couponUseParamsSchema, ctx.params);
    ctx.body = { released: await giveCouponUseBack(deps, orderId) } satisfies z.infer<typeof couponUseReleaseSchema>;
  });

  router.get('/attachments/:id', auth.require(['mail']), async (ctx) => {
    const { id } = parseParams(attachmentParamsSchema, ctx.params);
    const file = await findAttachment(deps.db, id);
    if (!file) throw notFound(courtesyMessages.attachmentNotFound);
    ctx.type = file.content_type;
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    ctx.body = file.content;
  });

  return router;
}
