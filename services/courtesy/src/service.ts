import { Router } from '@koa/router';
import { byAccount, catalogClient, defineService, rateLimit, startPeriodicJob } from '@ticketing/platform';
import { couponMessages } from '@ticketing/proto';
import { courtesyConfig } from './config.ts';
import { courtesyConsumers } from './consumers/index.ts';
import { courtesyMigrations } from './data/migrations.ts';
import type { CourtesyDeps } from './domain/deps.ts';
import { couponRoutes } from './http/coupons-routes.ts';
import { internalRoutes } from './http/internal-routes.ts';
import { linkRoutes } from './http/links-routes.ts';
import { massSendRoutes } from './http/mass-send-routes.ts';
import { redeemRoutes } from './http/redeem-routes.ts';
import { redemptionRoutes } from './http/redemptions-routes.ts';
import { ticketTypeRoutes } from './http/ticket-types-routes.ts';
import { massSendRound } from './jobs/mass-send-worker.ts';

/**
 * Courtesy: free and promotional links for events, their redemption by invited guests, the promotional uses of
 * orders, invitations sent in bulk from a CSV file, and the coupons orders take off their tickets.
 */
export const courtesyService = defineService({
  name: 'courtesy',
  config: courtesyConfig,
  migrations: courtesyMigrations,
  setup({ config, db, redis, logger, metrics, outbox, verifyToken, serviceAuth, tracer }) {
    const deps: CourtesyDeps = {
      db,
      outbox,
      logger,
      catalog: catalogClient(config.CATALOG_URL, config.COLLABORATOR_TIMEOUT_MS, {
        serviceAuth,
        logger,
        metrics,
        tracer,
      }),
      siteUrl: config.PUBLIC_URL.replace(/\/+$/, ''),
      codePrefix: config.COURTESY_CODE_PREFIX,
    };
    const worker = startPeriodicJob(
      'mass-send',
      config.MASS_SEND_POLL_MS,
      massSendRound(deps, config.MASS_SEND_CONCURRENCY),
      logger,
    );
    // Codes are short enough to guess: each account has a budget of quotes (not each address, which a venue shares).
    const quoteLimit = rateLimit({
      redis,
      logger,
      keyPrefix: 'courtesy:coupon-quotes',
      points: config.COUPON_QUOTE_LIMIT_POINTS,
      windowSeconds: config.COUPON_QUOTE_LIMIT_WINDOW_SECONDS,
      counted: byAccount,
      message: couponMessages.tooManyQuotes,
      refusedLog: 'coupon quotes throttled',
    });
    const router = new Router();
    for (const routes of [
      linkRoutes(deps, verifyToken),
      redemptionRoutes(deps, verifyToken),
      redeemRoutes(deps, verifyToken),
      ticketTypeRoutes(deps, verifyToken),
      massSendRoutes(deps, verifyToken, () => worker.wake()),
      couponRoutes(deps, verifyToken, quoteLimit),
      internalRoutes(deps, serviceAuth),
    ]) {
      router.use(routes.routes());
    }
    return { router, consumers: courtesyConsumers(deps), close: () => worker.close() };
  },
});
