import { Router } from '@koa/router';
import { defineService, doorEventsChanged } from '@ticketing/platform';
import { countSoldSpot } from './consumers/count-sold.ts';
import { releaseOrderHold, releaseRefundedOrder } from './consumers/release-order-hold.ts';
import { catalogMigrations } from './data/migrations.ts';
import { adminEventRoutes } from './http/admin-events-routes.ts';
import { doorRoutes } from './http/door-routes.ts';
import { eventRoutes } from './http/events-routes.ts';
import { holdRoutes } from './http/holds-routes.ts';

/** Events, their listing and search, and the inventory of spots held against them. */
export const catalogService = defineService({
  name: 'catalog',
  migrations: catalogMigrations,
  setup({ config, db, outbox, logger, verifyToken, serviceAuth }) {
    const deps = { db, outbox, logger };
    const router = new Router();
    const routes = [
      eventRoutes(deps, verifyToken, config.PUBLIC_URL),
      adminEventRoutes(deps, verifyToken),
      doorRoutes(deps, verifyToken),
      holdRoutes(deps, serviceAuth),
    ];
    for (const group of routes) {
      router.use(group.routes());
    }
    const releaseOrder = releaseOrderHold(deps);
    return {
      router,
      consumers: {
        'order.cancelled': releaseOrder,
        'order.expired': releaseOrder,
        'order.refunded': releaseRefundedOrder(deps),
        'order.paid': countSoldSpot(deps),
        'user.door-events-changed': (payload, { trx }) => doorEventsChanged(deps, trx, payload),
      },
    };
  },
});
