import type { Knex } from '@ticketing/platform';

/**
 * Makes `rows` the ones `owned` selects in `table` (an event's sessions, its types, their lots): the others there are
 * deleted, those already there change their `changing` columns in place, and the new ones are added.
 */
export async function replaceOwnedRows(
  trx: Knex.Transaction,
  table: string,
  owned: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
  rows: { id: string }[],
  changing: string[],
): Promise<void> {
  await owned(trx(table))
    .whereNotIn(
      'id',
      rows.map((row) => row.id),
    )
    .delete();
  if (rows.length > 0) await trx(table).insert(rows).onConflict('id').merge(changing);
}
