import { Router } from '@koa/router';
import { parseInput, parseParams, type ServiceAuth } from '@ticketing/platform';
import {
  chargeParamsSchema,
  chargeRequestSchema,
  chargesQuerySchema,
  newChargeParamsSchema,
  type ChargeList,
} from '@ticketing/proto';
import type { PaymentsDeps } from '../domain/charge.ts';
import { chargesOf, checkCharge, createCharge, refundCharge } from '../domain/charges.ts';
import { toChargeListItem, toChargeRefundAnswer, toChargeStatusView, toChargeView } from './views.ts';

/** Charges for orders, inside the cluster; the gateway does not route /internal. */
export function internalRoutes(deps: PaymentsDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal/charges' });
  router.use(auth.require(['orders']));

  // How to pay orders answered again (orders keeps none of it), with their notes and refunds: read from what is kept
  // here, no provider call.
  router.get('/', async (ctx) => {
    const { orderIds } = parseInput(chargesQuerySchema, ctx.query);
    const charges = await chargesOf(deps, orderIds);
    ctx.body = {
      charges: charges.map(({ charge, invoice }) => toChargeListItem(charge, invoice)),
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
    ctx.body = toChargeRefundAnswer(await refundCharge(deps, orderId));
  });

  return router;
}
