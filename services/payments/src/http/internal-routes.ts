import { Router } from '@koa/router';
import { parseInput, type ServiceAuth } from '@ticketing/platform';
import { chargeRequestSchema } from '@ticketing/proto';
import type { PaymentsDeps } from '../domain/charge.ts';
import { checkCharge, createCharge, refundCharge } from '../domain/charges.ts';
import { toChargeStatusView, toChargeView } from './views.ts';

/** Charges for orders, inside the cluster; the gateway does not route /internal. */
export function internalRoutes(deps: PaymentsDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/charges/:orderId' });
  router.use(auth.require(['orders']));

  router.put('/', async (ctx) => {
    const request = parseInput(chargeRequestSchema, ctx.request.body);
    ctx.body = toChargeView(await createCharge(deps, ctx.params.orderId!, request));
  });

  router.post('/check', async (ctx) => {
    ctx.body = toChargeStatusView(await checkCharge(deps, ctx.params.orderId!));
  });

  router.post('/refund', async (ctx) => {
    ctx.body = toChargeStatusView(await refundCharge(deps, ctx.params.orderId!));
  });

  return router;
}
