import { Router } from '@koa/router';
import { byAccount, catalogClient, defineService, rateLimit, startPeriodicJob } from '@ticketing/platform';
import { courtesyClient } from './clients/courtesy.ts';
import { identityClient } from './clients/identity.ts';
import { paymentsClient } from './clients/payments.ts';
import { ordersConfig } from './config.ts';
import { ordersConsumers } from './consumers/index.ts';
import { ordersMigrations } from './data/migrations.ts';
import { expireOverdueOrders } from './domain/expire-orders.ts';
import { messages, type OrdersDeps } from './domain/order.ts';
import { sendOwedRefunds } from './domain/owed-refunds.ts';
import { placeLatePayments } from './domain/payment-events.ts';
import { believedMemory } from './domain/believed.ts';
import { adminOrderRoutes, adminRefundRoutes, adminSalesRoutes } from './http/admin-routes.ts';
import { orderRoutes } from './http/orders-routes.ts';
import { createOrdersMetrics } from './metrics.ts';

/** How long an event's first type is believed without asking the catalog again (purchases that name no type). */
const FIRST_TYPE_BELIEVED_MS = 5_000;

/**
 * Orders: buying a ticket (spot held in the catalog, charge made in payments, a promotional code's use taken in
 * courtesy), the buyer's list, cancelling and re-checking, the transitions payments announce, the paid orders of
 * redeemed courtesies, expiry of unpaid orders, refunds (late payments, administrators' refunds, the buyer's
 * withdrawal), the buyer's view of the ticket, and the erasure of deleted accounts.
 */
export const ordersService = defineService({
  name: 'orders',
  config: ordersConfig,
  migrations: ordersMigrations,
  setup({ config, db, redis, logger, metrics, outbox, verifyToken, serviceAuth, tracer }) {
    const caller = { serviceAuth, logger, metrics, tracer };
    const timeout = config.COLLABORATOR_TIMEOUT_MS;
    const deps: OrdersDeps = {
      db,
      redis,
      logger,
      outbox,
      catalog: catalogClient(config.CATALOG_URL, timeout, caller),
      payments: paymentsClient(config.PAYMENTS_URL, timeout, caller, config.CHARGE_TIMEOUT_MS),
      identity: identityClient(config.IDENTITY_URL, timeout, caller),
      courtesy: courtesyClient(config.COURTESY_URL, timeout, caller),
      // After recording: the spot confirmed and the charge made, or either failing and the spot and use given back.
      limits: { maxPendingOrders: config.MAX_PENDING_ORDERS, creationMs: 4 * timeout + config.CHARGE_TIMEOUT_MS },
      placements: new Map(),
      soldOut: believedMemory<true>(config.SOLD_OUT_BELIEVED_MS),
      firstTypes: believedMemory<string>(FIRST_TYPE_BELIEVED_MS),
    };
    createOrdersMetrics(metrics.registry, db);
    const router = new Router();
    const purchaseLimit = rateLimit({
      redis,
      logger,
      keyPrefix: 'orders:purchases',
      points: config.ORDER_RATE_LIMIT_POINTS,
      windowSeconds: config.ORDER_RATE_LIMIT_WINDOW_SECONDS,
      counted: byAccount,
      message: messages.tooManyOrders,
      refusedLog: 'purchases throttled',
    });
    router.use(orderRoutes(deps, verifyToken, purchaseLimit).routes());
    router.use(adminOrderRoutes(deps, verifyToken).routes());
    router.use(adminSalesRoutes(deps, verifyToken).routes());
    router.use(adminRefundRoutes(deps, verifyToken).routes());
    const expiry = startPeriodicJob(
      'order-expiry',
      config.ORDER_EXPIRY_SWEEP_MS,
      () => expireOverdueOrders(deps),
      logger,
    );
    // Late payments waiting for a spot are placed first: those left without one owe a refund the same round sends.
    const refunds = startPeriodicJob(
      'owed-refunds',
      config.ORDER_REFUND_RETRY_MS,
      async () => {
        await placeLatePayments(deps);
        await sendOwedRefunds(deps);
      },
      logger,
    );
    return {
      router,
      consumers: ordersConsumers(deps, refunds),
      close: async () => {
        await expiry.close();
        await refunds.close();
      },
    };
  },
});
