import { Router } from '@koa/router';
import { parseInput, parseParams, requireAdmin, type AuthUser, type TokenVerifier } from '@ticketing/platform';
import {
  orderParamsSchema,
  orderSearchQuerySchema,
  refundOrderSchema,
  salesQuerySchema,
  type AdminOrderAnswer,
  type OrderSearchAnswer,
  type RefundAnswer,
  type RefundAttentionAnswer,
  type SalesView,
} from '@ticketing/proto';
import { findOrders, orderHistory } from '../domain/back-office-orders.ts';
import { messages, type OrdersDeps } from '../domain/order.ts';
import { refusedRefunds, retryRefusedRefund } from '../domain/owed-refunds.ts';
import { refundByAdmin } from '../domain/refunds.ts';
import { salesFigures } from '../domain/sales.ts';
import { toAdminOrder, toOrderSearchRow, toOrderView, toRefundAttentionRow } from './views.ts';

/** The back office's orders, routed by the gateway under /api/admin/orders; administrators only. */
export function adminOrderRoutes(deps: OrdersDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/admin/orders' });
  router.use(requireAdmin(verifyToken));

  router.get('/', async (ctx) => {
    const query = parseInput(orderSearchQuerySchema, ctx.query);
    const { orders, total, totalPages } = await findOrders(deps, query);
    ctx.body = { orders: orders.map(toOrderSearchRow), total, totalPages } satisfies OrderSearchAnswer;
  });

  router.get('/:id', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    const { order, timeline } = await orderHistory(deps, id);
    ctx.body = { order: toAdminOrder(order), timeline } satisfies AdminOrderAnswer;
  });

  router.post('/:id/refund', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    const { reason } = parseInput(refundOrderSchema, ctx.request.body);
    const admin = ctx.state.user as AuthUser;
    const order = await refundByAdmin(deps, id, admin.id, reason);
    ctx.status = 202;
    ctx.body = { message: messages.refundRequested, order: toOrderView(order) } satisfies RefundAnswer;
  });

  // A refund the provider refused, asked again: answered as the order reads now (refused again, it says so).
  router.post('/:id/refund/retry', async (ctx) => {
    const { id } = parseParams(orderParamsSchema, ctx.params);
    await retryRefusedRefund(deps, id, (ctx.state.user as AuthUser).id);
    const { order, timeline } = await orderHistory(deps, id);
    ctx.body = { order: toAdminOrder(order), timeline } satisfies AdminOrderAnswer;
  });

  return router;
}

/** Refunds the provider refused, routed by the gateway under /api/admin/refunds; administrators only. */
export function adminRefundRoutes(deps: OrdersDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/admin/refunds' });
  router.use(requireAdmin(verifyToken));

  router.get('/', async (ctx) => {
    const orders = await refusedRefunds(deps);
    ctx.body = { refunds: orders.map(toRefundAttentionRow) } satisfies RefundAttentionAnswer;
  });

  return router;
}

/** The back office's sales figures, routed by the gateway under /api/admin/sales; administrators only. */
export function adminSalesRoutes(deps: OrdersDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/admin/sales' });
  router.use(requireAdmin(verifyToken));

  router.get('/', async (ctx) => {
    const { eventId } = parseInput(salesQuerySchema, ctx.query);
    ctx.body = (await salesFigures(deps, eventId)) satisfies SalesView;
  });

  return router;
}
