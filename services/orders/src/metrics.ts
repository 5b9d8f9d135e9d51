import type { Knex, Metrics } from '@ticketing/platform';
import { Gauge } from 'prom-client';
import { countPendingByDeadline, countRefusedRefunds } from './data/order-gauges.ts';

/** How far ahead a pending order counts as near its expiry. */
export const NEAR_EXPIRY_MS = 15 * 60 * 1000;

/**
 * The orders service's own metrics, on the service's registry next to the HTTP and bus ones: counted from its tables
 * when scraped (partial indexes keep each count cheap), so every replica reports the same figure.
 */
export function createOrdersMetrics(registry: Metrics['registry'], db: Knex): void {
  new Gauge({
    name: 'orders_pending_near_expiry',
    help: 'Pending orders whose payment window closes within the next 15 minutes',
    registers: [registry],
    async collect() {
      this.set((await countPendingByDeadline(db, new Date(), NEAR_EXPIRY_MS)).nearExpiry);
    },
  });
  new Gauge({
    name: 'orders_pending_overdue',
    help: 'Pending orders past their payment window that the expiry sweep has not closed yet (their spots stay held)',
    registers: [registry],
    async collect() {
      this.set((await countPendingByDeadline(db, new Date(), NEAR_EXPIRY_MS)).overdue);
    },
  });
  new Gauge({
    name: 'orders_refunds_refused',
    help: 'Refunds the payment provider refused, waiting for an administrator to try again (GET /api/admin/refunds)',
    registers: [registry],
    async collect() {
      this.set(await countRefusedRefunds(db));
    },
  });
}
