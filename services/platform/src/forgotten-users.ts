import type { Knex } from './db.ts';

/**
 * The deleted accounts a service has heard of (`user.deleted`), so an event about one that arrives later never
 * brings its personal data back. Each service that keeps personal data makes this table in its own schema.
 */
export async function createForgottenUsersTable(db: Knex): Promise<void> {
  await db.schema.createTable('forgotten_users', (t) => {
    t.uuid('user_id').primary();
    t.timestamp('forgotten_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function rememberForgottenUser(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('forgotten_users').insert({ user_id: userId }).onConflict('user_id').ignore();
}

export async function isForgottenUser(db: Knex, userId: string): Promise<boolean> {
  return (await db('forgotten_users').where({ user_id: userId }).first()) !== undefined;
}
