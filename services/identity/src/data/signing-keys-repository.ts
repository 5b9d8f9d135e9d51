import type { Knex } from '@ticketing/platform';
import type { JWK } from 'jose';

export interface SigningKeyRow {
  kid: string;
  public_jwk: JWK;
  private_jwk: JWK;
  activates_at: Date;
  retired_at: Date | null;
  /** Active now: activated and not yet retired. */
  signs_now: boolean;
}

const SIGNS_NOW = 'activates_at <= now() and (retired_at is null or retired_at > now())';
const NEWEST_FIRST = [
  { column: 'activates_at', order: 'desc' },
  { column: 'created_at', order: 'desc' },
  { column: 'kid', order: 'desc' },
] as const;

/** Holds the signing-key lock until the transaction ends, so replicas starting together create one key. */
export async function lockSigningKeys(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('signing-keys:' || current_schema()))`);
}

/** Whether some key signs now or will (a key not retired). */
export async function hasUnretiredKey(trx: Knex.Transaction): Promise<boolean> {
  return (await trx('signing_keys').whereNull('retired_at').first('kid')) !== undefined;
}

/** The key new tokens are signed with: the newest one active now. */
export async function signingKid(db: Knex): Promise<string | undefined> {
  const row = (await db('signing_keys')
    .whereRaw(SIGNS_NOW)
    .orderBy([...NEWEST_FIRST])
    .first('kid')) as { kid: string } | undefined;
  return row?.kid;
}

/** Stores a key; without `activatesAt` it signs from the moment of the insert. */
export async function insertKey(
  trx: Knex.Transaction,
  key: { kid: string; publicJwk: JWK; privateJwk: JWK; activatesAt: Date | null },
): Promise<void> {
  await trx('signing_keys').insert({
    kid: key.kid,
    public_jwk: key.publicJwk,
    private_jwk: key.privateJwk,
    created_at: trx.raw('clock_timestamp()'),
    activates_at: key.activatesAt ?? trx.raw('clock_timestamp()'),
  });
}

/** Retires every key not yet retired but `kid`, at `at` (or now); returns their ids. */
export async function retireKeysExcept(trx: Knex.Transaction, kid: string, at: Date | null): Promise<string[]> {
  const rows = (await trx('signing_keys')
    .whereNull('retired_at')
    .whereNot({ kid })
    .update({ retired_at: at ?? trx.raw('clock_timestamp()') })
    .returning('kid')) as { kid: string }[];
  return rows.map((row) => row.kid);
}

/** Keys not retired (active or about to be) and keys retired less than `graceSeconds` ago, newest first. */
export async function publishedKeys(db: Knex, graceSeconds: number): Promise<SigningKeyRow[]> {
  return (await db('signing_keys')
    .select('kid', 'public_jwk', 'private_jwk', 'activates_at', 'retired_at', db.raw(`(${SIGNS_NOW}) as signs_now`))
    .where((query) =>
      query
        .whereNull('retired_at')
        .orWhere('retired_at', '>', db.raw(`now() - make_interval(secs => ?)`, [graceSeconds])),
    )
    .orderBy([...NEWEST_FIRST])) as SigningKeyRow[];
}
