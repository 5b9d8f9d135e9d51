import { Router } from '@koa/router';
import { defineService, doorEventsChanged, startPeriodicJob } from '@ticketing/platform';
import { catalogConfig } from './config.ts';
import { countSoldSpot } from './consumers/count-sold.ts';
import { releaseOrderHold, releaseRefundedOrder } from './consumers/release-order-hold.ts';
import { catalogMigrations } from './data/migrations.ts';
import { adminEventRoutes } from './http/admin-events-routes.ts';
import { doorRoutes } from './http/door-routes.ts';
import { eventRoutes } from './http/events-routes.ts';
import { giveBackLapsedHolds } from './domain/inventory.ts';
import { holdRoutes } from './http/holds-routes.ts';
import { ticketTypeRoutes } from './http/ticket-types-routes.ts';

/**
 * Events, their listing and search, and the inventory of spots held against them (provisional holds that were never
 * confirmed are given back by a sweep).
 */
export const catalogService = defineService({
  name: 'catalog',
  config: catalogConfig,
  migrations: catalogMigrations,
  setup({ config, db, outbox, logger, verifyToken, serviceAuth }) {
    const deps = { db, outbox, logger };
    const router = new Router();
    const routes = [
      eventRoutes(deps, verifyToken, config.PUBLIC_URL),
      adminEventRoutes(deps, verifyToken),
      doorRoutes(deps, verifyToken),
      holdRoutes(deps, serviceAuth, config.PROVISIONAL_HOLD_SECONDS),
      ticketTypeRoutes(deps, serviceAuth),
    ];
    for (const group of routes) {
      router.use(group.routes());
    }
    const releaseOrder = releaseOrderHold(deps);
    const lapsedHolds = startPeriodicJob('lapsed-holds', config.HOLD_SWEEP_MS, () => giveBackLapsedHolds(deps), logger);
    return {
      router,
      close: () => lapsedHolds.close(),
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
