import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';
import type { Knex, Logger } from '@ticketing/platform';
import {
  hasUnretiredKey,
  insertKey,
  lockSigningKeys,
  publishedKeys,
  retireKeysExcept,
  signingKid,
  type SigningKeyRow,
} from '../data/signing-keys-repository.ts';

/** Tokens are signed with Ed25519; every service accepts this algorithm. */
export const SIGNING_ALGORITHM = 'EdDSA';

/** How long the verifier inside this service trusts the public keys it read before reading them again. */
const KEY_CACHE_MS = 60_000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/** The service's signing keys, as stored. */
export interface SigningKeys {
  /** The newest key active now, checked against the store on every call: every new token is signed with it. */
  current(): Promise<SigningKey>;
  /** The public keys verifiers must know (not retired, or retired within the window), kept up to a minute. */
  published(): Promise<JSONWebKeySet>;
  /** Reads the store again (for the published set, or when a token names a key not seen yet). */
  refresh(): Promise<JSONWebKeySet>;
}

interface Loaded {
  at: number;
  signing: SigningKey | undefined;
  jwks: JSONWebKeySet;
}

const publicJwk = (row: SigningKeyRow): JWK => ({
  ...row.public_jwk,
  kid: row.kid,
  alg: SIGNING_ALGORITHM,
  use: 'sig',
});

/** `windowSeconds`: how long a retired key stays published — as long as the longest token it signed can live. */
export function createSigningKeys(db: Knex, windowSeconds: number): SigningKeys {
  let loaded: Loaded | undefined;
  let loading: Promise<Loaded> | undefined;

  const load = () =>
    (loading ??= (async () => {
      try {
        const rows = await publishedKeys(db, windowSeconds);
        const newest = rows.find((row) => row.signs_now);
        const signing = newest && {
          kid: newest.kid,
          privateKey: (await importJWK(newest.private_jwk, SIGNING_ALGORITHM)) as CryptoKey,
        };
        loaded = { at: Date.now(), signing, jwks: { keys: rows.map(publicJwk) } };
        return loaded;
      } finally {
        loading = undefined;
      }
    })());

  return {
    async current() {
      // One indexed read per token: a rotation made by any replica or by the rotation script applies at once.
      const newest = await signingKid(db);
      let signing = loaded?.signing;
      if (!signing || signing.kid !== newest) signing = (await load()).signing;
      if (!signing) throw new Error('no active signing key');
      return signing;
    },
    async published() {
      return (loaded && Date.now() - loaded.at < KEY_CACHE_MS ? loaded : await load()).jwks;
    },
    async refresh() {
      return (await load()).jwks;
    },
  };
}

async function createKey(trx: Knex.Transaction, activatesAt: Date | null): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  await insertKey(trx, { kid, publicJwk, privateJwk: await exportJWK(privateKey), activatesAt });
  return kid;
}

/** Makes sure there is a key to sign with; replicas starting at once wait for each other and create one. */
export async function ensureSigningKey(deps: { db: Knex; logger: Logger }): Promise<void> {
  const created = await deps.db.transaction(async (trx) => {
    await lockSigningKeys(trx);
    return (await hasUnretiredKey(trx)) ? undefined : createKey(trx, null);
  });
  if (created) deps.logger.info({ kid: created }, 'signing key created');
}

/**
 * Replaces the signing key. The new key is published at once and signs from `activateInSeconds` on (at once
 * by default); the previous keys stop signing then, and stay published until the tokens they signed have
 * expired, so nobody is logged out by a rotation. A delay lets every service's cached key set learn the new
 * key before the first token signed with it arrives.
 */
export async function rotateSigningKey(
  deps: { db: Knex; logger: Logger; keys?: SigningKeys },
  { activateInSeconds = 0 }: { activateInSeconds?: number } = {},
): Promise<{ kid: string; activatesAt: Date; retired: string[] }> {
  const activatesAt = activateInSeconds > 0 ? new Date(Date.now() + activateInSeconds * 1000) : null;
  const { kid, retired } = await deps.db.transaction(async (trx) => {
    await lockSigningKeys(trx);
    const kid = await createKey(trx, activatesAt);
    return { kid, retired: await retireKeysExcept(trx, kid, activatesAt) };
  });
  await deps.keys?.refresh();
  const result = { kid, activatesAt: activatesAt ?? new Date(), retired };
  deps.logger.info(result, 'signing key rotated');
  return result;
}
