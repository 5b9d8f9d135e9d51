import type { Metrics } from '@ticketing/platform';
import { Gauge } from 'prom-client';
import type { CertificatesDeps } from './domain/deps.ts';
import { dueAutoReleases } from './domain/release.ts';

/**
 * The certificates service's own metrics, on the service's registry next to the HTTP and bus ones, counted from its
 * tables when scraped.
 */
export function createCertificatesMetrics(registry: Metrics['registry'], deps: Pick<CertificatesDeps, 'db'>): void {
  new Gauge({
    name: 'certificates_auto_release_overdue',
    help:
      'Events whose automatic certificate release is due and has not happened: the periodic job releases each on ' +
      'its next round, so one that stays here is failing (see the "periodic job failed" logs)',
    registers: [registry],
    async collect() {
      this.set((await dueAutoReleases(deps, new Date())).length);
    },
  });
}
