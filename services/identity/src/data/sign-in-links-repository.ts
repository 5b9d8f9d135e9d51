import type { Knex } from '@ticketing/platform';

export async function insertSignInLink(
  trx: Knex.Transaction,
  link: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await trx('sign_in_links').insert({ token_hash: link.tokenHash, user_id: link.userId, expires_at: link.expiresAt });
}

/**
 * Marks a link used in one conditional statement, so of two requests with the same link only one wins; every
 * other link of the account ends with it. Undefined when it was used, has expired or its account is gone.
 */
export async function useSignInLink(trx: Knex.Transaction, tokenHash: string): Promise<{ userId: string } | undefined> {
  const [row] = (await trx('sign_in_links')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ used_at: trx.fn.now() })
    .returning('user_id')) as { user_id: string }[];
  if (!row) return undefined;
  await trx('sign_in_links').where({ user_id: row.user_id }).whereNull('used_at').update({ used_at: trx.fn.now() });
  return { userId: row.user_id };
}

export async function deleteSignInLinksOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('sign_in_links').where({ user_id: userId }).delete();
}
