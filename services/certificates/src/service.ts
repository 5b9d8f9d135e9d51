import { Router } from '@koa/router';
import { defineService, startPeriodicJob } from '@ticketing/platform';
import { certificatesConfig } from './config.ts';
import { certificatesConsumers } from './consumers/index.ts';
import { certificatesMigrations } from './data/migrations.ts';
import type { CertificatesDeps } from './domain/deps.ts';
import { autoReleaseRound } from './domain/release.ts';
import { certificateRoutes } from './http/certificate-routes.ts';
import { eventRoutes } from './http/event-routes.ts';
import { internalRoutes } from './http/internal-routes.ts';
import { createCertificatesMetrics } from './metrics.ts';

/**
 * Certificates of attendance: each event's settings, the certificates its holders earn by the sessions they were
 * admitted to, their PDFs, and the public check of a code.
 */
export const certificatesService = defineService({
  name: 'certificates',
  config: certificatesConfig,
  migrations: certificatesMigrations,
  setup({ config, db, redis, logger, metrics, outbox, verifyToken, serviceAuth }) {
    const deps: CertificatesDeps = { db, outbox, logger, siteUrl: config.PUBLIC_URL.replace(/\/+$/, '') };
    createCertificatesMetrics(metrics.registry, deps);
    const autoRelease = startPeriodicJob(
      'auto-release',
      config.AUTO_RELEASE_POLL_MS,
      () => autoReleaseRound(deps),
      logger,
    );
    const router = new Router();
    for (const routes of [
      eventRoutes(deps, verifyToken),
      certificateRoutes(deps, verifyToken, redis, config),
      internalRoutes(deps, serviceAuth),
    ]) {
      router.use(routes.routes());
    }
    return { router, consumers: certificatesConsumers(deps), close: () => autoRelease.close() };
  },
});
