import { Router } from '@koa/router';
import { parseInput, parseParams, type ServiceAuth } from '@ticketing/platform';
import { chargeParamsSchema, chargeRequestSchema, newChargeParamsSchema } from '@ticketing/proto';
import type { PaymentsDeps } from '../domain/charge.ts';
import { checkCharge, createCharge, refundCharge } from '../domain/charges.ts';
import { toChargeStatusView, toChargeView } from './views.ts';

/** Charges for orders, inside the cluster; the gateway does not route /internal. */
export function internalRoutes(deps: PaymentsDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/charges/:orderId' });
  router.use(auth.require(['orders']));

  router.put('/', async (ctx) => {
    const { orderId } = parseParams(newChargeParamsSchema, ctx.params, 400);
    const request = parseInput(chargeRequestSchema, ctx.request.body);
    ctx.body = toChargeView(await createCharge(deps, orderId, request));
  });

  router.post('/check', async (ctx) => {
    const { orderId } = parseParams(chargeParamsSchema, ctx.params);
    ctx.body = toChargeStatusView(await checkCharge(deps, orderId));
  });

  router.post('/refund', async (ctx) => {
    const { orderId } = parseParams(chargeParamsSchema, ctx.params);
    ctx.body = toChargeStatusView(await refundCharge(deps, orderId));
  });

  return router;
}
