import type { Knex, Metrics } from '@ticketing/platform';
import { Counter, Gauge } from 'prom-client';
import { countWaiting } from './data/email-queue.ts';

/** The mail service's own metrics, on the service's registry next to the HTTP and bus ones. */
export function createMailMetrics(registry: Metrics['registry'], db: Knex) {
  new Gauge({
    name: 'mail_queue_pending',
    help: 'E-mails waiting to be delivered (pending or being sent)',
    registers: [registry],
    async collect() {
      this.set(await countWaiting(db));
    },
  });
  return {
    sent: new Counter({
      name: 'mail_emails_sent_total',
      help: 'E-mails accepted by the SMTP server, by template',
      labelNames: ['template'],
      registers: [registry],
    }),
    failed: new Counter({
      name: 'mail_emails_failed_total',
      help: 'E-mails given up on (refused, or out of attempts), by template',
      labelNames: ['template'],
      registers: [registry],
    }),
    retried: new Counter({
      name: 'mail_delivery_retries_total',
      help: 'Failed delivery attempts that will be retried, by template',
      labelNames: ['template'],
      registers: [registry],
    }),
  };
}

export type MailMetrics = ReturnType<typeof createMailMetrics>;
