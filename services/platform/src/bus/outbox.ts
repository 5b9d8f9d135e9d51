import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DEAD_LETTER_TOPIC, deadLetterSchema, type Envelope } from '@ticketing/proto';
import { trace } from '../context.ts';
import type { Knex } from '../db.ts';

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
}

/**
 * `committed` runs after a transaction that added events commits: it wakes this process's relay at once. (A
 * NOTIFY per event would serialise every committing transaction on PostgreSQL's notification lock.)
 */
export function createOutbox<R extends EventRegistry>(schemas: R, committed: () => void = () => {}): Outbox<R> {
  // The platform itself produces dead letters, whatever the service's own registry says.
  const registry: EventRegistry = { ...schemas, [DEAD_LETTER_TOPIC]: deadLetterSchema };
  return {
    async add(trx, type, key, payload) {
      const schema = registry[type];
      if (!schema) throw new Error(`unknown event type ${type}`);
      const context = trace.current();
      const id = randomUUID();
      const envelope: Envelope = {
        id,
        type,
        occurredAt: new Date().toISOString(),
        correlationId: context?.requestId ?? id,
        causationId: context?.causationId ?? null,
        key,
        payload: schema.parse(payload),
      };
      await trx('outbox').insert({ id, topic: type, key, envelope });
      trx.executionPromise.then(committed, () => {});
      return envelope;
    },
  };
}
