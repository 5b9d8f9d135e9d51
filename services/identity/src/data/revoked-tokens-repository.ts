import type { Knex } from '@ticketing/platform';

/** Ends one token: it stays refused until it would have expired anyway. */
export async function revokeToken(
  trx: Knex.Transaction,
  token: { tokenId: string; userId: string; expiresAt: Date },
): Promise<void> {
  await trx('revoked_tokens')
    .insert({ token_id: token.tokenId, user_id: token.userId, expires_at: token.expiresAt })
    .onConflict('token_id')
    .ignore();
  // Expired entries can go: nothing would accept their tokens.
  await trx('revoked_tokens').where({ user_id: token.userId }).where('expires_at', '<=', trx.fn.now()).delete();
}

/** The ids of the account's tokens that were ended one by one and have not expired yet. */
export async function revokedTokenIds(db: Knex, userId: string): Promise<string[]> {
  const rows = (await db('revoked_tokens')
    .select('token_id')
    .where({ user_id: userId })
    .where('expires_at', '>', db.fn.now())) as { token_id: string }[];
  return rows.map((row) => row.token_id);
}
