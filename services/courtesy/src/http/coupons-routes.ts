import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import {
  parseInput,
  parseParams,
  requireAdmin,
  requireUser,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import {
  couponCodeParamsSchema,
  couponListQuerySchema,
  couponParamsSchema,
  couponQuoteQuerySchema,
  createCouponSchema,
  updateCouponSchema,
  type CouponListAnswer,
  type CouponQuote,
  type CouponView,
} from '@ticketing/proto';
import { quoteCoupon } from '../domain/coupon-uses.ts';
import { createCoupon, listCoupons, setCouponActive } from '../domain/coupons.ts';
import type { CourtesyDeps } from '../domain/deps.ts';
import { toCouponView } from './views.ts';

/** Coupons: administrators create, list and turn them off or on; a signed-in buyer asks what one takes off. */
export function couponRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier, quoteLimit: Middleware): Router {
  const router = new Router({ prefix: '/api/coupons' });
  const admin = requireAdmin(verifyToken);

  router.post('/', admin, async (ctx) => {
    const input = parseInput(createCouponSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = toCouponView(await createCoupon(deps, ctx.state.user as AuthUser, input)) satisfies CouponView;
  });

  router.get('/', admin, async (ctx) => {
    const { page } = parseInput(couponListQuerySchema, ctx.query);
    const { coupons, totalPages } = await listCoupons(deps, page);
    ctx.body = { coupons: coupons.map(toCouponView), page, totalPages } satisfies CouponListAnswer;
  });

  router.patch('/:id', admin, async (ctx) => {
    const { id } = parseParams(couponParamsSchema, ctx.params);
    const { isActive } = parseInput(updateCouponSchema, ctx.request.body);
    ctx.body = toCouponView(await setCouponActive(deps, id, isActive)) satisfies CouponView;
  });

  router.get('/:code/quote', requireUser(verifyToken), quoteLimit, async (ctx) => {
    const { code } = parseParams(couponCodeParamsSchema, ctx.params);
    const { eventId } = parseInput(couponQuoteQuerySchema, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await quoteCoupon(deps, code, eventId)) satisfies CouponQuote;
  });

  return router;
}
