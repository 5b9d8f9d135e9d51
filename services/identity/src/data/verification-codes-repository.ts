import type { Knex } from '@ticketing/platform';

export interface VerificationCode {
  id: string;
  userId: string;
  email: string;
  codeHash: string;
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
}

interface CodeRow {
  id: string;
  user_id: string;
  email: string;
  code_hash: string;
  expires_at: Date;
  attempts: number;
  consumed_at: Date | null;
}

const toCode = (row: CodeRow): VerificationCode => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  codeHash: row.code_hash,
  expiresAt: row.expires_at,
  attempts: row.attempts,
  consumedAt: row.consumed_at,
});

/**
 * Stores a new code for a user; the codes sent before it stop working. They stay, expired, for their count of
 * wrong tries, and go after a day.
 */
export async function replaceCode(
  trx: Knex.Transaction,
  code: { userId: string; email: string; codeHash: string; expiresAt: Date },
): Promise<VerificationCode> {
  await trx('verification_codes')
    .where({ user_id: code.userId })
    .whereNull('consumed_at')
    .where('created_at', '<', trx.raw("now() - interval '1 day'"))
    .delete();
  await trx('verification_codes')
    .where({ user_id: code.userId })
    .whereNull('consumed_at')
    .update({ expires_at: trx.raw('least(expires_at, now())') });
  const [row] = (await trx('verification_codes')
    .insert({ user_id: code.userId, email: code.email, code_hash: code.codeHash, expires_at: code.expiresAt })
    .returning('*')) as CodeRow[];
  return toCode(row!);
}

/** The user's code still waiting to be used, locked so concurrent guesses are counted one by one. */
export async function pendingCodeForUpdate(
  trx: Knex.Transaction,
  userId: string,
): Promise<VerificationCode | undefined> {
  const row = (await trx('verification_codes')
    .where({ user_id: userId })
    .whereNull('consumed_at')
    .orderBy('created_at', 'desc')
    .forUpdate()
    .first()) as CodeRow | undefined;
  return row && toCode(row);
}

/** Wrong codes the user sent in the last 24 hours, across every code they were sent. */
export async function wrongAttemptsToday(trx: Knex.Transaction, userId: string): Promise<number> {
  const row = (await trx('verification_codes')
    .where({ user_id: userId })
    .where('created_at', '>', trx.raw("now() - interval '1 day'"))
    .sum({ total: 'attempts' })
    .first()) as { total: string | number | null } | undefined;
  return Number(row?.total ?? 0);
}

export async function countWrongAttempt(trx: Knex.Transaction, id: string): Promise<number> {
  const [row] = (await trx('verification_codes').where({ id }).increment('attempts', 1).returning('attempts')) as {
    attempts: number;
  }[];
  return row!.attempts;
}

export async function consumeCode(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('verification_codes').where({ id }).update({ consumed_at: trx.fn.now() });
}

export async function deleteCodesOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('verification_codes').where({ user_id: userId }).delete();
}
