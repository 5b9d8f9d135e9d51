import {
  activeSpan,
  backoffDelayMs,
  extractTrace,
  failed,
  inSpan,
  SpanKind,
  startWakeableLoop,
  trace,
  type Knex,
  type Logger,
  type Outbox,
  type Tracer,
} from '@ticketing/platform';
import {
  claimDue,
  failExhausted,
  markFailed,
  markRetry,
  markSent,
  msUntilNextDue,
  type ClaimedEmail,
} from '../data/email-queue.ts';
import type { MailMetrics } from '../metrics.ts';
import { describeError, isPermanent } from './errors.ts';
import type { Sender } from './smtp.ts';

export interface WorkerOptions {
  db: Knex;
  /** Announces each e-mail about an order once it is sent (mail.sent). */
  outbox: Outbox;
  sender: Sender;
  logger: Logger;
  metrics: MailMetrics;
  /** Each delivery is a span continuing the trace the e-mail was queued in. */
  tracer: Tracer;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  batchSize: number;
  /** How long a claim holds a row; must outlast one send (its timeout), or a slow send is repeated. */
  leaseMs: number;
}

export interface DeliveryWorker {
  /** Look for due e-mails now (a new one was committed). */
  wake(): void;
  /** Stops claiming, lets the sends in flight finish and record their outcome. */
  close(): Promise<void>;
}

const MIN_WAIT_MS = 25;

/**
 * Delivers the queue. Each round claims due rows (several replicas side by side), sends them, and records the
 * outcome; between rounds it sleeps until the next row is due, the poll interval passes, or `wake()` is called.
 *
 * Guarantees: an e-mail stored is never lost (a crash before or during sending leaves the row pending, or
 * "sending" until its claim lapses, and it is sent then). Delivery is at least once, not exactly once: if the
 * process dies (or the database is unreachable) after the SMTP server accepted a message but before the row is
 * marked sent, or a send is cut off by its timeout after the server had already accepted it, the message is sent
 * again. Both copies carry the same Message-ID.
 */
export function startDeliveryWorker(options: WorkerOptions): DeliveryWorker {
  const { db, outbox, sender, logger, metrics, tracer } = options;
  const { maxAttempts, retryBaseMs, retryMaxMs, pollMs, batchSize, leaseMs } = options;

  async function recordFailure(row: ClaimedEmail, error: unknown, fields: Record<string, unknown>) {
    const reason = describeError(error);
    const refused = isPermanent(error);
    if (refused || row.attempts >= maxAttempts) {
      await markFailed(db, row.id, row.attempts, reason);
      metrics.failed.inc({ template: row.template });
      logger.error(
        { ...fields, error: reason },
        refused ? 'e-mail refused by the SMTP server; not retrying' : 'e-mail delivery failed; no attempts left',
      );
    } else {
      const delay = backoffDelayMs(row.attempts, retryBaseMs, retryMaxMs);
      await markRetry(db, row.id, row.attempts, delay, reason);
      metrics.retried.inc({ template: row.template });
      logger.warn({ ...fields, error: reason, retryInMs: delay }, 'e-mail delivery failed; will retry');
    }
  }

  /** Sends one claimed e-mail and records what happened, in the trace it was queued in; never throws. */
  const deliver = (row: ClaimedEmail) =>
    inSpan(
      tracer,
      'smtp send',
      {
        kind: SpanKind.CLIENT,
        parent: extractTrace(row.traceparent),
        attributes: { 'email.id': row.id, 'email.template': row.template, 'email.attempt': row.attempts },
      },
      () => trace.run({ requestId: row.correlation_id ?? row.id, causationId: row.id }, () => attempt(row)),
    );

  async function attempt(row: ClaimedEmail) {
    const fields = { emailId: row.id, template: row.template, attempt: row.attempts };
    if (row.interrupted) logger.warn(fields, 'resuming an interrupted delivery; the e-mail may arrive twice');
    let messageId: string;
    try {
      ({ messageId } = await sender.send(row));
    } catch (error) {
      const span = activeSpan();
      if (span) failed(span, error);
      await recordFailure(row, error, fields).catch((recordError: unknown) =>
        logger.error(
          { ...fields, err: recordError },
          'could not record a failed attempt; retried when the claim lapses',
        ),
      );
      return;
    }
    metrics.sent.inc({ template: row.template });
    try {
      await recordSent(row);
      logger.info({ ...fields, messageId }, 'e-mail sent');
    } catch (error) {
      logger.error({ ...fields, err: error }, 'e-mail sent but not recorded; it is sent again when the claim lapses');
    }
  }

  /** Marks the e-mail sent and, the first time, announces it when it is about an order. */
  async function recordSent(row: ClaimedEmail) {
    const sentAt = new Date();
    const [announcement = null] = row.order_id
      ? outbox.envelopes([
          {
            type: 'mail.sent',
            key: row.order_id,
            payload: {
              emailId: row.id,
              orderId: row.order_id,
              template: row.template,
              subject: row.subject,
              sentAt: sentAt.toISOString(),
            },
          },
        ])
      : [];
    const recorded = await markSent(db, row.id, sentAt, announcement);
    if (recorded && announcement) outbox.written();
  }

  async function round(): Promise<number> {
    for (const row of await failExhausted(db, maxAttempts)) {
      metrics.failed.inc({ template: row.template });
      logger.error(
        { emailId: row.id, template: row.template, attempt: row.attempts },
        'e-mail delivery failed; no attempts left',
      );
    }
    const claimed = await claimDue(db, { limit: batchSize, leaseMs, maxAttempts });
    await Promise.all(claimed.map(deliver));
    return claimed.length;
  }

  let failures = 0;
  return startWakeableLoop(async (sleep) => {
    try {
      const claimed = await round();
      failures = 0;
      if (claimed > 0) return;
      const dueIn = await msUntilNextDue(db, maxAttempts);
      await sleep(dueIn === null ? pollMs : Math.max(MIN_WAIT_MS, Math.min(dueIn, pollMs)));
    } catch (error) {
      failures++;
      logger.warn({ err: error }, 'e-mail queue unavailable; retrying');
      await sleep(backoffDelayMs(failures, 200, Math.max(pollMs, 5000)));
    }
  });
}
