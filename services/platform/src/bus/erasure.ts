import type { Knex } from '../db.ts';

/** Where a service keeps whole events: those it writes (outbox) and those its consumers gave up on. */
const EVENT_TABLES = ['outbox', 'dead_letters'] as const;

/**
 * Replaces the person inside the stored events about a user (`payload.userId`): `replacement` is merged over the
 * object at `payload.<field>`. The events keep their shape, so a dead letter can still be replayed.
 */
export async function scrubUserEvents(
  trx: Knex.Transaction,
  userId: string,
  field: string,
  replacement: Record<string, string>,
): Promise<number> {
  const path = `{payload,${field}}`;
  let changed = 0;
  for (const table of EVENT_TABLES) {
    changed += await trx(table)
      .whereRaw(`envelope #>> '{payload,userId}' = ?`, [userId])
      .whereRaw(`jsonb_typeof(envelope #> ?::text[]) = 'object'`, [path])
      .update({
        envelope: trx.raw('jsonb_set(envelope, ?::text[], (envelope #> ?::text[]) || ?::jsonb)', [
          path,
          path,
          JSON.stringify(replacement),
        ]),
      });
  }
  return changed;
}
