import type { Knex } from '@ticketing/platform';

export interface Hold {
  id: string;
  eventId: string;
  quantity: number;
  /** Spots a release left taken (0 unless released with some kept). */
  kept: number;
  createdAt: Date;
  releasedAt: Date | null;
  /** A provisional hold is given back at this time unless confirmed; null once confirmed, or for any other hold. */
  expiresAt: Date | null;
}

interface HoldRow {
  id: string;
  event_id: string;
  quantity: number;
  kept: number;
  created_at: Date;
  released_at: Date | null;
  expires_at: Date | null;
}

const toHold = (row: HoldRow): Hold => ({
  id: row.id,
  eventId: row.event_id,
  quantity: row.quantity,
  kept: row.kept,
  createdAt: row.created_at,
  releasedAt: row.released_at,
  expiresAt: row.expires_at,
});

/** A hold to record: provisional for `provisionalSeconds` when given. */
export interface NewHold {
  id: string;
  quantity: number;
  provisionalSeconds: number | null;
}

/**
 * Records holds of one event in one statement, answering those recorded: an id another hold already has (of another
 * event, recorded meanwhile) is left out.
 */
export async function insertHolds(trx: Knex.Transaction, eventId: string, holds: NewHold[]): Promise<Hold[]> {
  const rows = holds.map((hold) => ({ id: hold.id, quantity: hold.quantity, seconds: hold.provisionalSeconds }));
  const result = await trx.raw<{ rows: HoldRow[] }>(
    `insert into holds (id, event_id, quantity, expires_at)
     select id, ?::uuid, quantity, now() + make_interval(secs => seconds)
     from jsonb_to_recordset(?::jsonb) as new_hold(id text, quantity integer, seconds integer)
     on conflict (id) do nothing
     returning *`,
    [eventId, JSON.stringify(rows)],
  );
  return result.rows.map(toHold);
}

export async function findHolds(db: Knex, ids: string[]): Promise<Hold[]> {
  return ((await db<HoldRow>('holds').whereIn('id', ids)) as HoldRow[]).map(toHold);
}

/** Keeps a provisional hold of this event for good, in one conditional statement; undefined when not held. */
export async function confirmHold(db: Knex, id: string, eventId: string): Promise<Hold | undefined> {
  const [row] = (await db<HoldRow>('holds')
    .where({ id, event_id: eventId })
    .whereNull('released_at')
    .update({ expires_at: null })
    .returning('*')) as HoldRow[];
  return row && toHold(row);
}

/**
 * Marks released, in one statement, up to `limit` provisional holds past their time that no other replica is
 * working on; answers them.
 */
export async function releaseLapsedHolds(trx: Knex.Transaction, limit: number): Promise<Hold[]> {
  const lapsed = (query: Knex.QueryBuilder) => query.whereNull('released_at').where('expires_at', '<=', trx.fn.now());
  const rows = (await trx<HoldRow>('holds')
    .whereIn('id', lapsed(trx('holds').select('id')).orderBy('expires_at').limit(limit).forUpdate().skipLocked())
    .modify(lapsed)
    .update({ released_at: trx.fn.now() })
    .returning('*')) as HoldRow[];
  return rows.map(toHold);
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
