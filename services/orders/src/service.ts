import { Router } from '@koa/router';
import { defineService } from '@ticketing/platform';
import { catalogClient } from './clients/catalog.ts';
import { identityClient } from './clients/identity.ts';
import { paymentsClient } from './clients/payments.ts';
import { ordersConfig } from './config.ts';
import { ordersConsumers } from './consumers/index.ts';
import { ordersMigrations } from './data/migrations.ts';
import { expireOverdueOrders } from './domain/expire-orders.ts';
import type { OrdersDeps } from './domain/order.ts';
import { noPromoPrices } from './domain/promo.ts';
import { orderRoutes } from './http/orders-routes.ts';
import { startPeriodicJob } from './jobs/expiry-job.ts';

/**
 * Orders: buying a ticket (spot held in the catalog, charge made in payments), the buyer's list, cancelling and
 * re-checking, the transitions payments announce, expiry of unpaid orders, and the buyer's view of the ticket.
 */
export const ordersService = defineService({
  name: 'orders',
  config: ordersConfig,
  migrations: ordersMigrations,
  setup({ config, db, redis, logger, outbox, verifyToken }) {
    const timeout = config.COLLABORATOR_TIMEOUT_MS;
    const deps: OrdersDeps = {
      db,
      redis,
      logger,
      outbox,
      catalog: catalogClient(config.CATALOG_URL, timeout),
      payments: paymentsClient(config.PAYMENTS_URL, timeout),
      identity: identityClient(config.IDENTITY_URL, timeout),
      promos: noPromoPrices,
    };
    const router = new Router();
    router.use(orderRoutes(deps, verifyToken).routes());
    const expiry = startPeriodicJob(
      'order-expiry',
      config.ORDER_EXPIRY_SWEEP_MS,
      () => expireOverdueOrders(deps),
      logger,
    );
    return { router, consumers: ordersConsumers(deps), close: () => expiry.close() };
  },
});
