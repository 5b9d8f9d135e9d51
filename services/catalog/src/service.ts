import { Router } from '@koa/router';
import { defineService } from '@ticketing/platform';
import { releaseOrderHold, releaseRefundedOrder } from './consumers/release-order-hold.ts';
import { catalogMigrations } from './data/migrations.ts';
import { eventRoutes } from './http/events-routes.ts';
import { holdRoutes } from './http/holds-routes.ts';

/** Events, their listing and search, and the inventory of spots held against them. */
export const catalogService = defineService({
  name: 'catalog',
  migrations: catalogMigrations,
  setup({ config, db, outbox, logger, verifyToken, serviceAuth }) {
    const deps = { db, outbox, logger };
    const router = new Router();
    for (const routes of [eventRoutes(deps, verifyToken, config.PUBLIC_URL), holdRoutes(deps, serviceAuth)]) {
      router.use(routes.routes());
    }
    const releaseOrder = releaseOrderHold(deps);
    return {
      router,
      consumers: {
        'order.cancelled': releaseOrder,
        'order.expired': releaseOrder,
        'order.refunded': releaseRefundedOrder(deps),
      },
    };
  },
});
