import { setTimeout as delay } from 'node:timers/promises';
import { DEAD_LETTER_TOPIC, envelopeSchema, type Envelope } from '@ticketing/proto';
import { trace } from '../context.ts';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { EventRegistry, Outbox } from './outbox.ts';
import type { Delivery, Subscription, Transport } from './transport.ts';

export interface HandlerContext {
  trx: Knex.Transaction;
  event: Envelope;
}

/** A handler's writes share one transaction with the inbox row that marks the event handled. */
export type EventHandler<P = any> = (payload: P, context: HandlerContext) => Promise<void>;
export type EventHandlers = Record<string, EventHandler>;

export interface ConsumerOptions {
  group: string;
  handlers: EventHandlers;
  schemas: EventRegistry;
  transport: Transport;
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  metrics: Metrics;
  maxAttempts?: number;
  retryDelayMs?: (attempt: number) => number;
}

// Connection loss, shutdown, resource limits, serialization and deadlock: the event is fine, the moment is not.
const TRANSIENT_SQLSTATE = /^(08|53|57P|40001|40P01)/;
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

function isTransient(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  return typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_CODES.has(code));
}

/**
 * Subscribes a service's handlers, one per event type. An event is handled at most once (inbox); a handler
 * that keeps failing on the same event sends it to the dead-letter topic so the events after it still flow.
 * Infrastructure failures are not the event's fault: they are thrown back so the transport redelivers later.
 */
export function startConsumers(options: ConsumerOptions): Promise<Subscription> {
  const { group, handlers, schemas, transport, db, outbox, logger, metrics } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelayMs = options.retryDelayMs ?? ((attempt: number) => Math.min(200 * 2 ** attempt, 10_000));

  async function deadLetter(delivery: Delivery, event: Envelope | undefined, error: unknown, attempts: number) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.error({ err: error, topic: delivery.topic, eventId: event?.id, attempts }, 'event dead-lettered');
    await db.transaction(async (trx) => {
      if (event)
        await trx('inbox')
          .insert({ event_id: event.id, handler: delivery.topic, outcome: 'dead_lettered' })
          .onConflict()
          .ignore();
      await outbox.add(trx, DEAD_LETTER_TOPIC, group, {
        group,
        topic: delivery.topic,
        error: reason.slice(0, 2000),
        attempts,
        event: event ?? { raw: delivery.value.slice(0, 100_000) },
      });
    });
    metrics.busHandled.inc({ topic: delivery.topic, outcome: 'dead_lettered' });
  }

  function parse(delivery: Delivery): Envelope {
    const envelope = envelopeSchema.parse(JSON.parse(delivery.value));
    const schema = schemas[delivery.topic];
    return { ...envelope, payload: schema ? schema.parse(envelope.payload) : envelope.payload };
  }

  async function handle(delivery: Delivery): Promise<void> {
    const handler = handlers[delivery.topic];
    if (!handler) return;
    let event: Envelope;
    try {
      event = parse(delivery);
    } catch (error) {
      return deadLetter(delivery, undefined, error, 0);
    }
    metrics.busLag.observe({ topic: delivery.topic }, Math.max(0, Date.now() - Date.parse(event.occurredAt)) / 1000);
    await trace.run({ requestId: event.correlationId, causationId: event.id }, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const outcome = await db.transaction(async (trx) => {
            const fresh = await trx('inbox')
              .insert({ event_id: event.id, handler: delivery.topic, outcome: 'handled' })
              .onConflict()
              .ignore()
              .returning('event_id');
            if (fresh.length === 0) return 'duplicate';
            await handler(event.payload, { trx, event });
            return 'handled';
          });
          metrics.busHandled.inc({ topic: delivery.topic, outcome });
          return;
        } catch (error) {
          if (isTransient(error)) throw error;
          metrics.busHandled.inc({ topic: delivery.topic, outcome: 'failed_attempt' });
          logger.warn({ err: error, topic: delivery.topic, eventId: event.id, attempt }, 'event handler failed');
          if (attempt >= maxAttempts) return deadLetter(delivery, event, error, attempt);
          await delay(retryDelayMs(attempt));
        }
      }
    });
  }

  return transport.subscribe(group, Object.keys(handlers), handle);
}
