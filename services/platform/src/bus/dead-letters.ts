import { Gauge } from 'prom-client';
import { envelopeSchema, type Envelope } from '@ticketing/proto';
import type { Knex } from '../db.ts';
import type { Metrics } from '../metrics.ts';
import { addEnvelope } from './outbox.ts';

export interface DeadLetter {
  /** The id of the bus.dead-letter event that announced it. */
  id: string;
  group: string;
  topic: string;
  eventId: string | null;
  /** The envelope as it was delivered, or `{ raw }` when the message was not one. */
  envelope: Envelope | { raw: string };
  error: string;
  attempts: number;
}

/** Keeps a dead letter in the consumer's schema, in the transaction that marks the event dead-lettered. */
export async function recordDeadLetter(trx: Knex.Transaction, letter: DeadLetter): Promise<void> {
  const { id, group, topic, eventId, envelope, error, attempts } = letter;
  await trx('dead_letters').insert({ id, group, topic, event_id: eventId, envelope, error, attempts });
}

export type ReplayResult =
  | { status: 'replayed'; group: string; topic: string; eventId: string }
  | { status: 'not_found' }
  | { status: 'already_replayed'; replayedAt: Date }
  | { status: 'not_replayable' };

/**
 * Sends a dead-lettered event again, as it was (same id and key), through the outbox of the schema `db` works in:
 * its group forgets it gave up (the inbox row goes) and handles it once more; every other group already has it in
 * its inbox and skips it. One replay per dead letter: concurrent replays wait on its row and find it replayed.
 */
export function replayDeadLetter(db: Knex, id: string): Promise<ReplayResult> {
  return db.transaction(async (trx): Promise<ReplayResult> => {
    const letter = await trx('dead_letters').where({ id }).forUpdate().first();
    if (!letter) return { status: 'not_found' };
    if (letter.replayed_at) return { status: 'already_replayed', replayedAt: letter.replayed_at };
    if (!envelopeSchema.safeParse(letter.envelope).success) return { status: 'not_replayable' };
    const envelope = letter.envelope as Envelope;
    await trx('inbox').where({ event_id: envelope.id, handler: letter.topic, outcome: 'dead_lettered' }).delete();
    await addEnvelope(trx, letter.topic, envelope);
    await trx('dead_letters').where({ id }).update({ replayed_at: trx.fn.now() });
    return { status: 'replayed', group: letter.group, topic: letter.topic, eventId: envelope.id };
  });
}

const UNREPLAYED = 'bus_dead_letters_unreplayed';

/** Dead letters waiting for a replay, by topic, counted when scraped (a partial index keeps it cheap). */
export function registerUnreplayedGauge(db: Knex, metrics: Metrics): void {
  // Every consumer of a service shares its registry and schema: the first one registers the gauge.
  if (metrics.registry.getSingleMetric(UNREPLAYED)) return;
  new Gauge({
    name: UNREPLAYED,
    help: 'Dead letters not replayed yet, by topic',
    labelNames: ['topic'],
    registers: [metrics.registry],
    async collect() {
      const rows: { topic: string; n: number }[] = await db('dead_letters')
        .whereNull('replayed_at')
        .groupBy('topic')
        .select('topic', db.raw('count(*)::int as n'));
      this.reset();
      for (const row of rows) this.set({ topic: row.topic }, row.n);
    },
  });
}
