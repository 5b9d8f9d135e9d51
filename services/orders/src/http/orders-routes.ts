import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { parseInput, parseParams, requireUser, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import {
  changeHolderSchema,
  createOrderSchema,
  orderItemParamsSchema,
  orderParamsSchema,
  pageQuerySchema,
  type RefundAnswer,
} from '@ticketing/proto';
import { cancelOrder, checkPaymentStatus, listOrders } from '../domain/buyer-orders.ts';
import { createOrder } from '../domain/create-order.ts';
import { changeItemHolder } from '../domain/holder-change.ts';
import { withdraw } from '../domain/withdrawal.ts';
import { messages, type OrdersDeps } from '../domain/order.ts';
import { toOrderView, toPaymentView } from './views.ts';

/**
 * The buyer's orders, routed by the gateway under /api/orders; every route needs a logged-in user, and starting a
 * purchase spends the account's budget (`purchaseLimit`).
 */
export function orderRoutes(deps: OrdersDeps, verifyToken: TokenVerifier, purchaseLimit: Middleware): Router {
  const router = new Router({ prefix: '/api/orders' });
  router.use(requireUser(verifyToken));
  const caller = (state: Record<string, unknown>) => state.user as AuthUser;

  router.post('/', purchaseLimit, async (ctx) => {
    const input = parseInput(createOrderSchema, ctx.request.body);
    const key = ctx.get('idempotency-key') || undefined;
    const { outcome, read } = await createOrder(deps, caller(ctx.state), input, key);
    ctx.status = outcome === 'existing' ? 200 : 201;
    ctx.body = { order: toOrderView(read), payment: read.payment && toPaymentView(read.order, read.payment) };
  });

  router.get('/', async (ctx) => {
    const { page } = parseInput(pageQuerySchema, ctx.query);
    const { orders, totalPages } = await listOrders(deps, caller(ctx.state).id, page);
    const now = new Date();
    ctx.body = { orders: orders.map((order) => toOrderView(order, now)), totalPages };
  });

  router.delete('/:id/cancel', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    await cancelOrder(deps, id, caller(ctx.state).id);
    ctx.body = { message: messages.cancelled };
  });

  router.post('/:id/check-status', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    ctx.body = { message: await checkPaymentStatus(deps, id, caller(ctx.state).id) };
  });

  router.post('/:id/withdraw', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    const order = await withdraw(deps, id, caller(ctx.state).id);
    ctx.status = 202;
    ctx.body = { message: messages.withdrawalRequested, order: toOrderView(order) } satisfies RefundAnswer;
  });

  router.put('/:id/items/:index/holder', async (ctx) => {
    const { id, index } = parseParams(orderItemParamsSchema, ctx.params);
    const holder = parseInput(changeHolderSchema, ctx.request.body);
    const read = await changeItemHolder(deps, { orderId: id, index, userId: caller(ctx.state).id, holder });
    ctx.body = { message: messages.holderChanged, order: toOrderView(read) };
  });

  return router;
}
