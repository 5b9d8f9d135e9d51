import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DEAD_LETTER_TOPIC, deadLetterSchema, type Envelope } from '@ticketing/proto';
import { trace, type TraceContext } from '../context.ts';
import type { Knex } from '../db.ts';
import { noopTracer, producerSpan, type Tracer } from '../tracing.ts';

export type EventRegistry = Record<string, z.ZodType>;

export interface Outbox<R extends EventRegistry = EventRegistry> {
  /**
   * Records an event in the caller's transaction: it is published if and only if that transaction commits.
   * Call it after the state change that locks the aggregate, so one aggregate's events keep their order.
   */
  add<T extends keyof R & string>(
    trx: Knex.Transaction,
    type: T,
    key: string,
    payload: z.input<R[T]>,
  ): Promise<Envelope>;
  /** Several events in one statement (one round trip), each with the trace of the request that caused it. */
  addAll<T extends keyof R & string>(trx: Knex.Transaction, events: PendingEvent<R, T>[]): Promise<Envelope[]>;
  /**
   * The envelopes of events the caller writes to `outbox` in the same statement as the state change they announce,
   * so both commit together without a transaction's extra round trips; call `written` once that statement committed.
   */
  envelopes<T extends keyof R & string>(events: PendingEvent<R, T>[]): Envelope[];
  /** Wakes this process's relay for the envelopes a committed statement wrote. */
  written(): void;
}

export interface PendingEvent<R extends EventRegistry = EventRegistry, T extends keyof R & string = keyof R & string> {
  type: T;
  key: string;
  payload: z.input<R[T]>;
  trace?: TraceContext;
}

/**
 * `committed` runs after a transaction that added events commits: it wakes this process's relay at once. (A
 * NOTIFY per event would serialise every committing transaction on PostgreSQL's notification lock.) Each event gets a
 * producer span of `tracer`, which its envelope's `traceparent` names for the consumers.
 */
export function createOutbox<R extends EventRegistry>(
  schemas: R,
  committed: () => void = () => {},
  tracer: Tracer = noopTracer,
): Outbox<R> {
  // The platform itself produces dead letters, whatever the service's own registry says.
  const registry: EventRegistry = { ...schemas, [DEAD_LETTER_TOPIC]: deadLetterSchema };
  const envelopeOf = ({ type, key, payload, trace: context = trace.current() }: PendingEvent): Envelope => {
    const schema = registry[type];
    if (!schema) throw new Error(`unknown event type ${type}`);
    const id = randomUUID();
    const traceparent = producerSpan(tracer, `publish ${type}`, {
      'messaging.operation.type': 'create',
      'messaging.destination.name': type,
      'messaging.message.id': id,
    });
    return {
      id,
      type,
      occurredAt: new Date().toISOString(),
      correlationId: context?.requestId ?? id,
      causationId: context?.causationId ?? null,
      key,
      payload: schema.parse(payload),
      ...(traceparent ? { traceparent } : {}),
    };
  };
  const outbox: Outbox<R> = {
    async addAll(trx, events) {
      const envelopes = (events as PendingEvent[]).map(envelopeOf);
      if (envelopes.length === 0) return [];
      await trx('outbox').insert(
        envelopes.map((envelope) => ({ id: envelope.id, topic: envelope.type, key: envelope.key, envelope })),
      );
      trx.executionPromise.then(committed, () => {});
      return envelopes;
    },
    envelopes: (events) => (events as PendingEvent[]).map(envelopeOf),
    written: committed,
    async add(trx, type, key, payload) {
      const [envelope] = await outbox.addAll(trx, [{ type, key, payload }]);
      return envelope!;
    },
  };
  return outbox;
}

/**
 * The SQL that writes to the outbox the envelope in the `envelope` column of each row of `rows` (a subquery or a
 * table the caller's statement names): a state change and its events in one statement, as `Outbox.envelopes` says.
 */
export const outboxInsert = (rows: string) =>
  `insert into outbox (id, topic, key, envelope)
   select (envelope->>'id')::uuid, envelope->>'type', envelope->>'key', envelope from ${rows}`;

/**
 * Puts an event back in the outbox exactly as it first travelled (same id, key and trace) so the relay sends it
 * again; a row of that id still kept here (this service produced it) is marked unpublished instead.
 */
export async function addEnvelope(trx: Knex.Transaction, topic: string, envelope: Envelope): Promise<void> {
  await trx('outbox')
    .insert({ id: envelope.id, topic, key: envelope.key, envelope })
    .onConflict('id')
    .merge({ published_at: null });
}
