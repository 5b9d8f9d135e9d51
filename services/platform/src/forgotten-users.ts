import { erasedPerson, type ErasedPerson } from '@ticketing/proto';
import { scrubUserEvents } from './bus/erasure.ts';
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

/**
 * Forgets a deleted account in this service's schema, in the caller's transaction: remembers it, lets `erase` put the
 * stand-in for the person in the service's own records, and takes the person out of the events kept here (outbox,
 * dead letters) wherever they stand as one of `roles`. Returns how many records and events changed.
 */
export async function forgetPerson(
  trx: Knex.Transaction,
  userId: string,
  roles: readonly string[],
  erase: (erased: ErasedPerson) => Promise<number>,
): Promise<{ records: number; events: number }> {
  const erased = erasedPerson(userId);
  await rememberForgottenUser(trx, userId);
  const records = await erase(erased);
  let events = 0;
  for (const role of roles) events += await scrubUserEvents(trx, userId, role, { ...erased, cpf: '' });
  return { records, events };
}
