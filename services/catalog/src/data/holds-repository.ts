import type { Knex } from '@ticketing/platform';

export interface Hold {
  id: string;
  eventId: string;
  quantity: number;
  /** Spots a release left taken (0 unless released with some kept). */
  kept: number;
  createdAt: Date;
  releasedAt: Date | null;
}

interface HoldRow {
  id: string;
  event_id: string;
  quantity: number;
  kept: number;
  created_at: Date;
  released_at: Date | null;
}

const toHold = (row: HoldRow): Hold => ({
  id: row.id,
  eventId: row.event_id,
  quantity: row.quantity,
  kept: row.kept,
  createdAt: row.created_at,
  releasedAt: row.released_at,
});

/**
 * Records a hold for an existing event. False when the event does not exist or the hold id is taken; a
 * concurrent insert of the same id waits for the other transaction and then reports the id as taken.
 */
export async function insertHold(
  trx: Knex.Transaction,
  hold: { id: string; eventId: string; quantity: number },
): Promise<boolean> {
  const result = await trx.raw<{ rows: unknown[] }>(
    `insert into holds (id, event_id, quantity)
     select ?::text, events.id, ?::integer from events where events.id = ?
     on conflict (id) do nothing
     returning id`,
    [hold.id, hold.quantity, hold.eventId],
  );
  return result.rows.length === 1;
}

export async function findHold(db: Knex, id: string): Promise<Hold | undefined> {
  const row = (await db<HoldRow>('holds').where({ id }).first()) as HoldRow | undefined;
  return row && toHold(row);
}

/**
 * Marks a hold of this event released, keeping `keep` of its spots taken, in one conditional statement; undefined
 * when there was nothing to release (or it holds fewer than `keep`).
 */
export async function releaseHold(
  trx: Knex.Transaction,
  id: string,
  eventId: string,
  keep: number,
): Promise<Hold | undefined> {
  const [row] = (await trx<HoldRow>('holds')
    .where({ id, event_id: eventId })
    .where('quantity', '>=', keep)
    .whereNull('released_at')
    .update({ released_at: trx.fn.now(), kept: keep })
    .returning('*')) as HoldRow[];
  return row && toHold(row);
}

/**
 * Marks released, in one conditional statement, every hold of an event still held under `holdId` or an id below it
 * (`<holdId>:…`); answers those it released.
 */
export async function releaseHoldsUnder(trx: Knex.Transaction, holdId: string, eventId: string): Promise<Hold[]> {
  const rows = (await trx<HoldRow>('holds')
    .where({ event_id: eventId })
    .whereNull('released_at')
    .where((query) => query.where({ id: holdId }).orWhereRaw('starts_with(id, ?)', [`${holdId}:`]))
    .update({ released_at: trx.fn.now() })
    .returning('*')) as HoldRow[];
  return rows.map(toHold);
}

/** Marks every spot of an order's open holds (its own and any under it) sold; answers how many holds it marked. */
export async function markOrderHoldsSold(trx: Knex.Transaction, holdId: string, eventId: string): Promise<number> {
  return trx('holds')
    .where({ event_id: eventId })
    .whereNull('released_at')
    .where((query) => query.where({ id: holdId }).orWhereRaw('starts_with(id, ?)', [`${holdId}:`]))
    .update({ sold: trx.ref('quantity') });
}

/** Marks one more spot of an open courtesy link's hold given, never beyond what it holds. */
export async function markOneSpotSold(trx: Knex.Transaction, holdId: string, eventId: string): Promise<void> {
  await trx('holds')
    .where({ id: holdId, event_id: eventId })
    .whereNull('released_at')
    .whereRaw('sold < quantity')
    .update({ sold: trx.raw('sold + 1') });
}
