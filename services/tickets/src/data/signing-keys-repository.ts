import type { Knex } from '@ticketing/platform';

export interface PublicKeyRow {
  kid: string;
  public_key: string;
  created_at: Date;
}

export interface PrivateKeyRow extends PublicKeyRow {
  private_key: string;
}

const NEWEST_FIRST = [
  { column: 'created_at', order: 'desc' },
  { column: 'signing_keys.kid', order: 'desc' },
] as const;

/** Holds the key lock until the transaction ends, so processes starting together create one key. */
export async function lockSigningKeys(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('ticket-signing-keys:' || current_schema()))`);
}

/** The keys that verify QR codes (every key not retired), newest first. */
export async function unretiredPublicKeys(db: Knex): Promise<PublicKeyRow[]> {
  return (await db('signing_keys')
    .select('kid', 'public_key', 'created_at')
    .whereNull('retired_at')
    .orderBy([...NEWEST_FIRST])) as PublicKeyRow[];
}

/** The key new QR codes are signed with: the newest one not retired (its private half is the worker's alone). */
export async function newestSigningKey(db: Knex): Promise<PrivateKeyRow | undefined> {
  return (await db('signing_keys')
    .join('signing_key_secrets', 'signing_key_secrets.kid', 'signing_keys.kid')
    .select('signing_keys.kid', 'public_key', 'private_key', 'created_at')
    .whereNull('retired_at')
    .orderBy([...NEWEST_FIRST])
    .first()) as PrivateKeyRow | undefined;
}

export async function insertSigningKey(
  trx: Knex.Transaction,
  key: { kid: string; publicKey: string; privateKey: string },
): Promise<void> {
  await trx('signing_keys').insert({
    kid: key.kid,
    public_key: key.publicKey,
    created_at: trx.raw('clock_timestamp()'),
  });
  await trx('signing_key_secrets').insert({ kid: key.kid, private_key: key.privateKey });
}

/** Retires a key: the QR codes it signed stop verifying. Returns whether it was in use. */
export async function retireSigningKey(db: Knex, kid: string): Promise<boolean> {
  const rows = await db('signing_keys')
    .where({ kid })
    .whereNull('retired_at')
    .update({ retired_at: db.fn.now() })
    .returning('kid');
  return rows.length > 0;
}
