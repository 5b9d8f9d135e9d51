import type { Knex } from '@ticketing/platform';

export async function insertReset(
  trx: Knex.Transaction,
  reset: { tokenHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await trx('password_resets').insert({
    token_hash: reset.tokenHash,
    user_id: reset.userId,
    expires_at: reset.expiresAt,
  });
}

/** The account a reset token opens: unused, unexpired, of an account that still exists. */
export async function findUsableReset(db: Knex, tokenHash: string): Promise<{ userId: string } | undefined> {
  const row = (await db('password_resets')
    .join('users', 'users.id', 'password_resets.user_id')
    .where({ 'password_resets.token_hash': tokenHash })
    .whereNull('password_resets.used_at')
    .whereNull('users.deleted_at')
    .where('password_resets.expires_at', '>', db.fn.now())
    .first('password_resets.user_id')) as { user_id: string } | undefined;
  return row && { userId: row.user_id };
}

/**
 * Marks a token used in one conditional statement, so of two requests with the same token only one wins.
 * Undefined when it was already used or has expired meanwhile.
 */
export async function useReset(trx: Knex.Transaction, tokenHash: string): Promise<{ userId: string } | undefined> {
  const [row] = (await trx('password_resets')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', trx.fn.now())
    .update({ used_at: trx.fn.now() })
    .returning('user_id')) as { user_id: string }[];
  return row && { userId: row.user_id };
}

/** Ends every other reset link of the user: once the password changed, older links must not change it again. */
export async function useAllResetsOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('password_resets').where({ user_id: userId }).whereNull('used_at').update({ used_at: trx.fn.now() });
}

export async function deleteResetsOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('password_resets').where({ user_id: userId }).delete();
}
