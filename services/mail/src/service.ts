import { defineService } from '@ticketing/platform';
import { mailConfig, mailProductionChecks } from './config.ts';
import { mailConsumers } from './consumers/index.ts';
import { mailMigrations } from './data/migrations.ts';
import { linkHeadersFor } from './delivery/link-headers.ts';
import { createSmtpSender } from './delivery/smtp.ts';
import { startDeliveryWorker } from './delivery/worker.ts';
import { createMailMetrics } from './metrics.ts';

/** Claims outlast a send's timeout by this much before another worker may take the e-mail over. */
const LEASE_MARGIN_MS = 30_000;

/**
 * E-mails: the events that need one are rendered from pt-BR templates into `email_queue` (in the consumer's
 * transaction), and a worker in the same process delivers the queue over SMTP with retries; an e-mail about an
 * order, once sent, is announced (mail.sent) for the order's timeline.
 */
export const mailService = defineService({
  name: 'mail',
  config: mailConfig,
  productionChecks: mailProductionChecks,
  migrations: mailMigrations,
  setup({ config, db, logger, metrics, tracer, outbox, serviceAuth }) {
    const sender = createSmtpSender({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      connections: config.MAIL_SMTP_CONNECTIONS,
      timeoutMs: config.MAIL_SEND_TIMEOUT_MS,
      linkHeaders: linkHeadersFor(serviceAuth, config.CERTIFICATES_URL),
    });
    const worker = startDeliveryWorker({
      db,
      outbox,
      sender,
      logger,
      tracer,
      metrics: createMailMetrics(metrics.registry, db),
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      retryMaxMs: config.MAIL_RETRY_MAX_MS,
      pollMs: config.MAIL_POLL_MS,
      batchSize: config.MAIL_BATCH_SIZE,
      leaseMs: config.MAIL_SEND_TIMEOUT_MS + LEASE_MARGIN_MS,
    });
    return {
      consumers: mailConsumers({
        logger,
        publicUrl: config.PUBLIC_URL,
        courtesyUrl: config.COURTESY_URL,
        certificatesUrl: config.CERTIFICATES_URL,
        queued: () => worker.wake(),
      }),
      async close() {
        await worker.close();
        sender.close();
      },
    };
  },
});
