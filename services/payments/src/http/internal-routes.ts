import { Router } from '@koa/router';
import { parseInput, parseParams, type ServiceAuth } from '@ticketing/platform';
import {
  chargeParamsSchema,
  chargeRequestSchema,
  chargesQuerySchema,
  newChargeParamsSchema,
  type ChargeList,
} from '@ticketing/proto';
import { findCharges } from '../data/charges-repository.ts';
import type { PaymentsDeps } from '../domain/charge.ts';
import { checkCharge, createCharge, refundCharge } from '../domain/charges.ts';
import { toChargeStatusView, toChargeView } from './views.ts';

/** Charges for orders, inside the cluster; the gateway does not route /internal. */
export function internalRoutes(deps: PaymentsDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/charges' });
  router.use(auth.require(['orders']));

  // How to pay orders answered again (orders keeps none of it): read from the charges kept here, no provider call.
  router.get('/', async (ctx) => {
    const { orderIds } = parseInput(chargesQuerySchema, ctx.query);
    const charges = await findCharges(deps.db, orderIds);
    ctx.body = {
      charges: charges.map((charge) => ({ orderId: charge.orderId, ...toChargeView(charge) })),
    } satisfies ChargeList;
  });

  router.put('/:orderId', async (ctx) => {
    const { orderId } = parseParams(newChargeParamsSchema, ctx.params, 400);
    const request = parseInput(chargeRequestSchema, ctx.request.body);
    ctx.body = toChargeView(await createCharge(deps, orderId, request));
  });

  router.post('/:orderId/check', async (ctx) => {
    const { orderId } = parseParams(chargeParamsSchema, ctx.params);
    ctx.body = toChargeStatusView(await checkCharge(deps, orderId));
  });

  router.post('/:orderId/refund', async (ctx) => {
    const { orderId } = parseParams(chargeParamsSchema, ctx.params);
    ctx.body = toChargeStatusView(await refundCharge(deps, orderId));
  });

  return router;
}
