import { setTimeout as delay } from 'node:timers/promises';
import { DEAD_LETTER_TOPIC, envelopeSchema, type Envelope } from '@ticketing/proto';
import { trace } from '../context.ts';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { ServiceKeys } from '../service-keys.ts';
import { extractTrace, inSpan, noopTracer, SpanKind, type Tracer } from '../tracing.ts';
import { recordDeadLetter, registerUnreplayedGauge } from './dead-letters.ts';
import type { EventRegistry, Outbox } from './outbox.ts';
import { refusal, type PublishRule } from './signatures.ts';
import { backoffDelayMs } from '../backoff.ts';
import { STUCK_AFTER_MS, TRANSIENT_BASE_MS, TRANSIENT_CAP_MS, isTransient } from './retry-policy.ts';
import { RetryLater, type Delivery, type Subscription, type Transport } from './transport.ts';

export interface HandlerContext {
  trx: Knex.Transaction;
  event: Envelope;
}

/** A handler's writes share one transaction with the inbox row that marks the event handled. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a map of handlers holds each event's own payload
export type EventHandler<P = any> = (payload: P, context: HandlerContext) => Promise<void>;
export type EventHandlers = Record<string, EventHandler>;

export interface ConsumerOptions {
  group: string;
  handlers: EventHandlers;
  schemas: EventRegistry;
  transport: Transport;
  /** Checks each message's signature with the public key of the producer it names. */
  keys: ServiceKeys;
  /** Who may publish what: a message from any other producer is refused. */
  mayPublish: PublishRule;
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  metrics: Metrics;
  /** Attempts at an event failing for a reason of its own before it is dead-lettered. */
  maxAttempts?: number;
  /** The short wait after such a failure (attempt 1, 2, …). */
  retryDelayMs?: (attempt: number) => number;
  /** The wait after transient failure number `attempt`, during which only the event's partition is held. */
  transientDelayMs?: (attempt: number) => number;
  /** A consumer span per delivery, a child of the producer's span that the envelope names: one trace per request. */
  tracer?: Tracer;
}

/** What one event has been through here so far, across its deliveries. */
interface Failures {
  failed: number;
  transient: number;
  since: number;
}

// Entries leave when their event is handled or dead-lettered; only a partition taken over by another member
// mid-retry leaves one behind, and this bound keeps those few from piling up over months.
const MAX_TRACKED = 10_000;

/**
 * Subscribes a service's handlers, one per event type. An event is handled at most once (inbox). A transient
 * failure (infrastructure, a collaborator down) holds the event's partition and delivers it again after a growing,
 * jittered wait, for as long as it takes. A handler that keeps failing on the event itself sends it, after a few
 * quick attempts, to the dead-letter topic and the `dead_letters` table, so the events after it still flow.
 */
export async function startConsumers(options: ConsumerOptions): Promise<Subscription> {
  const { group, handlers, schemas, transport, keys, mayPublish, db, outbox, logger, metrics } = options;
  const tracer = options.tracer ?? noopTracer;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelayMs = options.retryDelayMs ?? ((attempt: number) => backoffDelayMs(attempt + 1, 200, 10_000));
  const transientDelayMs =
    options.transientDelayMs ?? ((attempt: number) => backoffDelayMs(attempt, TRANSIENT_BASE_MS, TRANSIENT_CAP_MS));
  const tracked = new Map<string, Failures>();
  const closing = new AbortController();
  registerUnreplayedGauge(db, metrics);

  function track(key: string, failures: Failures) {
    tracked.delete(key);
    tracked.set(key, failures);
    if (tracked.size > MAX_TRACKED) tracked.delete(tracked.keys().next().value!);
  }

  async function deadLetter(delivery: Delivery, envelope: Envelope | undefined, error: unknown, attempts: number) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const recorded = await db.transaction(async (trx) => {
      if (envelope) {
        const fresh = await trx('inbox')
          .insert({ event_id: envelope.id, handler: delivery.topic, outcome: 'dead_lettered' })
          .onConflict()
          .ignore()
          .returning('event_id');
        // An earlier delivery of it was handled or dead-lettered already.
        if (fresh.length === 0) return false;
      }
      const raw = { raw: delivery.value.slice(0, 100_000) };
      const letter = await outbox.add(trx, DEAD_LETTER_TOPIC, group, {
        group,
        topic: delivery.topic,
        error: reason,
        attempts,
        event: envelope ?? raw,
      });
      await recordDeadLetter(trx, {
        id: letter.id,
        group,
        topic: delivery.topic,
        eventId: envelope?.id ?? null,
        envelope: envelope ?? raw,
        error: reason,
        attempts,
      });
      return true;
    });
    if (!recorded) return;
    logger.error({ err: error, topic: delivery.topic, eventId: envelope?.id, attempts }, 'event dead-lettered');
    metrics.busHandled.inc({ topic: delivery.topic, outcome: 'dead_lettered' });
    metrics.busDeadLetters.inc({ topic: delivery.topic });
  }

  /**
   * The envelope as delivered (kept for a replay) and the event with its payload checked, or why not. A message its
   * named producer did not sign, or may not publish, is never handled; it is kept raw, without a place in the inbox,
   * so a forgery can neither be replayed nor shadow the real event of the same id.
   */
  function read(delivery: Delivery): { envelope?: Envelope; event?: Envelope; error?: unknown } {
    let json: unknown;
    try {
      json = JSON.parse(delivery.value);
    } catch (error) {
      return { error };
    }
    const refused = refusal(keys, mayPublish, delivery.topic, json);
    if (refused) return { error: new Error(refused) };
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) return { error: envelope.error };
    const schema = schemas[delivery.topic];
    const payload = schema
      ? schema.safeParse(envelope.data.payload)
      : { success: true as const, data: envelope.data.payload };
    if (!payload.success) return { envelope: json as Envelope, error: payload.error };
    return { envelope: json as Envelope, event: { ...envelope.data, payload: payload.data } };
  }

  /** One attempt: the handler's writes and the inbox row, or nothing. */
  const attempt = (topic: string, event: Envelope) =>
    db.transaction(async (trx) => {
      const fresh = await trx('inbox')
        .insert({ event_id: event.id, handler: topic, outcome: 'handled' })
        .onConflict()
        .ignore()
        .returning('event_id');
      if (fresh.length === 0) return 'duplicate';
      await handlers[topic]!(event.payload, { trx, event });
      return 'handled';
    });

  function holdTransient(delivery: Delivery, eventId: string | undefined, failures: Failures, error: unknown) {
    failures.transient++;
    const retryInMs = transientDelayMs(failures.transient);
    const failingForMs = Date.now() - failures.since;
    const context = { err: error, topic: delivery.topic, eventId, transient: failures.transient, retryInMs };
    if (failingForMs > STUCK_AFTER_MS)
      logger.error({ ...context, failingForMs }, 'event still failing; retrying later');
    else logger.warn(context, 'event handler failed transiently; retrying later');
    metrics.busRetries.inc({ topic: delivery.topic, outcome: 'transient' });
    return new RetryLater(retryInMs, error);
  }

  /** Attempts until handled or dead-lettered; a transient failure is thrown to the caller, which holds the event. */
  async function handleEvent(delivery: Delivery, envelope: Envelope, event: Envelope, failures: Failures) {
    const { topic } = delivery;
    for (;;) {
      let failure: unknown;
      try {
        const outcome = await attempt(topic, event);
        if (failures.failed + failures.transient > 0) metrics.busRetries.inc({ topic, outcome: 'recovered' });
        metrics.busHandled.inc({ topic, outcome });
        return;
      } catch (error) {
        if (isTransient(error)) throw error;
        failure = error;
      }
      failures.failed++;
      metrics.busHandled.inc({ topic, outcome: 'failed_attempt' });
      logger.warn({ err: failure, topic, eventId: event.id, attempt: failures.failed }, 'event handler failed');
      if (failures.failed >= maxAttempts) return deadLetter(delivery, envelope, failure, failures.failed);
      metrics.busRetries.inc({ topic, outcome: 'failed' });
      // Shutting down: leave the event where it is, uncommitted, for whoever consumes next.
      await delay(retryDelayMs(failures.failed), undefined, { signal: closing.signal }).catch(() => {
        throw new RetryLater(0, failure);
      });
    }
  }

  async function handle(delivery: Delivery): Promise<void> {
    if (!handlers[delivery.topic]) return;
    const { envelope, event, error } = read(delivery);
    const key = `${delivery.topic}\u0000${event?.id ?? `${delivery.partition}@${delivery.offset}`}`;
    const failures = tracked.get(key) ?? { failed: 0, transient: 0, since: Date.now() };
    const work = async () => {
      try {
        if (event) await handleEvent(delivery, envelope!, event, failures);
        else await deadLetter(delivery, envelope, error, 0);
        tracked.delete(key);
      } catch (caught) {
        track(key, failures);
        // Transient, whether in the handler or while recording a dead letter: the event waits, then comes again.
        if (caught instanceof RetryLater || !isTransient(caught)) throw caught;
        throw holdTransient(delivery, event?.id, failures, caught);
      }
    };
    if (!event) return work();
    metrics.busLag.observe({ topic: delivery.topic }, Math.max(0, Date.now() - Date.parse(event.occurredAt)) / 1000);
    const attributes = {
      'messaging.operation.type': 'process',
      'messaging.destination.name': delivery.topic,
      'messaging.consumer.group.name': group,
      'messaging.message.id': event.id,
    };
    const parent = extractTrace(event.traceparent);
    await inSpan(tracer, `process ${delivery.topic}`, { kind: SpanKind.CONSUMER, attributes, parent }, () =>
      trace.run({ requestId: event.correlationId, causationId: event.id }, work),
    );
  }

  const subscription = await transport.subscribe(group, Object.keys(handlers), handle);
  return {
    async close() {
      closing.abort();
      await subscription.close();
    },
  };
}
