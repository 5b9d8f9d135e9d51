import { Router } from '@koa/router';
import { defineService, startPeriodicJob } from '@ticketing/platform';
import { createAsaas } from './asaas/adapter.ts';
import {
  DEVELOPMENT_API_KEY,
  DEVELOPMENT_WEBHOOK_TOKEN,
  isLocal,
  paymentsConfig,
  paymentsProductionChecks,
} from './config.ts';
import { paymentsConsumers } from './consumers/index.ts';
import { paymentsMigrations } from './data/migrations.ts';
import { deletionRound } from './domain/cancellation.ts';
import type { PaymentsDeps } from './domain/charge.ts';
import { invoiceRound } from './domain/invoices.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { internalRoutes } from './http/internal-routes.ts';
import { webhookRoutes } from './http/webhook-routes.ts';
import { createPaymentsMetrics } from './metrics.ts';

/**
 * Provider charges (Asaas), its webhooks, the reconciliation of what it says with the orders, refunds and the paid
 * orders' notas fiscais.
 */
export const paymentsService = defineService({
  name: 'payments',
  config: paymentsConfig,
  migrations: paymentsMigrations,
  secrets: ['ASAAS_API_KEY', 'ASAAS_WEBHOOK_TOKEN'],
  productionChecks: paymentsProductionChecks,
  setup({ config, db, outbox, logger, metrics, tracer, serviceAuth, verifyToken }) {
    if (!isLocal(config.ASAAS_BASE_URL)) {
      if (config.ASAAS_API_KEY === DEVELOPMENT_API_KEY) logger.warn('ASAAS_API_KEY is the development default');
      if (config.ASAAS_WEBHOOK_TOKEN === DEVELOPMENT_WEBHOOK_TOKEN) {
        logger.warn('ASAAS_WEBHOOK_TOKEN is the development default: set a real one');
      }
    }
    const asaas = createAsaas({
      baseUrl: config.ASAAS_BASE_URL,
      apiKey: config.ASAAS_API_KEY,
      timeoutMs: config.ASAAS_TIMEOUT_MS,
      maxAttempts: config.ASAAS_MAX_ATTEMPTS,
      retryDelayMs: config.ASAAS_RETRY_DELAY_MS,
      concurrentCharges: config.ASAAS_CONCURRENT_CHARGES,
      logger,
      tracer,
    });
    // The invoice job needs the deps it is woken from: it is started right after them.
    const invoiceWork = { wake: () => invoices.wake() };
    const deps: PaymentsDeps = {
      db,
      outbox,
      logger,
      metrics: createPaymentsMetrics(metrics.registry),
      asaas,
      tracer,
      invoiceWork,
    };
    const invoices = startPeriodicJob('invoices', config.INVOICE_SWEEP_MS, invoiceRound(deps), logger);
    const deletions = startPeriodicJob(
      'charge-deletions',
      config.CHARGE_DELETION_SWEEP_MS,
      deletionRound(deps),
      logger,
    );
    const router = new Router();
    for (const routes of [
      internalRoutes(deps, serviceAuth),
      webhookRoutes(deps, config.ASAAS_WEBHOOK_TOKEN),
      adminRoutes(deps, verifyToken),
    ]) {
      router.use(routes.routes());
    }
    return {
      router,
      consumers: paymentsConsumers(deps, deletions),
      close: async () => {
        await Promise.all([deletions.close(), invoices.close()]);
      },
    };
  },
});
