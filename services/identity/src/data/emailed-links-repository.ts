import type { Knex } from '@ticketing/platform';

/** The tables of single-use links e-mailed to an account's owner; each stores only the SHA-256 of its tokens. */
export type LinkTable = 'password_resets' | 'sign_in_links';

export async function insertLink(
  trx: Knex.Transaction,
  table: LinkTable,
  link: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await trx(table).insert({ token_hash: link.tokenHash, user_id: link.userId, expires_at: link.expiresAt });
}

/** The account a link opens: unused, unexpired, of an account that still exists. */
export async function findUsableLink(
  db: Knex,
  table: LinkTable,
  tokenHash: string,
): Promise<{ userId: string } | undefined> {
  const row = (await db(table)
    .join('users', 'users.id', `${table}.user_id`)
    .where({ [`${table}.token_hash`]: tokenHash })
    .whereNull(`${table}.used_at`)
    .whereNull('users.deleted_at')
    .where(`${table}.expires_at`, '>', db.fn.now())
    .first(`${table}.user_id`)) as { user_id: string } | undefined;
  return row && { userId: row.user_id };
}

/**
 * Marks a link used in one conditional statement, so of two requests with the same link only one wins.
 * Undefined when it was already used or has expired meanwhile.
 */
export async function useLink(
  trx: Knex.Transaction,
  table: LinkTable,
  tokenHash: string,
): Promise<{ userId: string } | undefined> {
  const [row] = (await trx(table)
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ used_at: trx.fn.now() })
    .returning('user_id')) as { user_id: string }[];
  return row && { userId: row.user_id };
}

/** Ends every link of this kind the account still holds unused. */
export async function useAllLinksOf(trx: Knex.Transaction, table: LinkTable, userId: string): Promise<void> {
  await trx(table).where({ user_id: userId }).whereNull('used_at').update({ used_at: trx.fn.now() });
}

export async function deleteLinksOf(trx: Knex.Transaction, table: LinkTable, userId: string): Promise<void> {
  await trx(table).where({ user_id: userId }).delete();
}
