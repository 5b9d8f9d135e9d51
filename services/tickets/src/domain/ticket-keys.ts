import type { KeyObject } from 'node:crypto';
import { ed25519PrivateKey, ed25519PublicKey, type Knex, type Logger } from '@ticketing/platform';
import {
  insertSigningKey,
  lockSigningKeys,
  newestSigningKey,
  retireSigningKey,
  unretiredPublicKeys,
} from '../data/signing-keys-repository.ts';
import { generateKeyMaterial, type SigningKey } from './qr-code.ts';

/** A public key as scanners read it (JWK, Ed25519). */
export interface PublishedKey {
  kid: string;
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** The keys of the QR codes, kept in memory: the door must not read them from the database on every scan. */
export interface TicketKeys {
  /** The newest key not retired, to sign new QR codes with. */
  signing(): Promise<SigningKey>;
  /** The public key named by a QR code, when it is one that verifies (not retired). */
  verifying(kid: string): Promise<KeyObject | undefined>;
  published(): Promise<PublishedKey[]>;
  /** Reads the keys again now. */
  refresh(): Promise<void>;
}

interface Loaded {
  at: number;
  byKid: Map<string, KeyObject>;
  published: PublishedKey[];
}

/**
 * `refreshMs`: how long a read of the keys is trusted. A QR code naming a key not seen yet reads the store again,
 * at most once per `unknownKidRefreshMs`, so forged key ids cannot flood the database.
 */
export function createTicketKeys(
  db: Knex,
  logger: Logger,
  refreshMs: number,
  { unknownKidRefreshMs = 1000 }: { unknownKidRefreshMs?: number } = {},
): TicketKeys {
  let loaded: Loaded | undefined;
  let loading: Promise<Loaded> | undefined;
  let signing: { at: number; key: SigningKey } | undefined;

  const load = () =>
    (loading ??= (async () => {
      try {
        const rows = await unretiredPublicKeys(db);
        loaded = {
          at: Date.now(),
          byKid: new Map(rows.map((row) => [row.kid, ed25519PublicKey(row.public_key)])),
          published: rows.map((row) => ({
            kid: row.kid,
            kty: 'OKP',
            crv: 'Ed25519',
            x: row.public_key,
            alg: 'EdDSA',
            use: 'sig',
          })),
        };
        return loaded;
      } finally {
        loading = undefined;
      }
    })());

  /** Fresh enough keys: a stale set is answered at once and refreshed behind the request. */
  async function current(): Promise<Loaded> {
    // None yet: the worker makes the first key, maybe while the door API starts; read until there is one.
    if (!loaded || loaded.published.length === 0) return load();
    if (Date.now() - loaded.at >= refreshMs && !loading) {
      load().catch((error) => logger.warn({ err: error }, 'ticket keys refresh failed'));
    }
    return loaded;
  }

  return {
    async signing() {
      if (signing && Date.now() - signing.at < refreshMs) return signing.key;
      const row = await newestSigningKey(db);
      if (!row) throw new Error('no ticket signing key');
      if (signing?.key.kid !== row.kid)
        signing = {
          at: Date.now(),
          key: { kid: row.kid, privateKey: ed25519PrivateKey(row.private_key) },
        };
      else signing.at = Date.now();
      return signing.key;
    },
    async verifying(kid) {
      let keys = await current();
      if (!keys.byKid.has(kid) && Date.now() - keys.at >= unknownKidRefreshMs) keys = await load();
      return keys.byKid.get(kid);
    },
    async published() {
      return (await current()).published;
    },
    async refresh() {
      signing = undefined;
      await load();
    },
  };
}

/** Makes sure a key exists to sign with; processes starting at once wait for each other and create one. */
export async function ensureTicketKey(deps: { db: Knex; logger: Logger }): Promise<void> {
  const created = await deps.db.transaction(async (trx) => {
    await lockSigningKeys(trx);
    if (await newestSigningKey(trx)) return undefined;
    const key = generateKeyMaterial();
    await insertSigningKey(trx, key);
    return key.kid;
  });
  if (created) deps.logger.info({ kid: created }, 'ticket signing key created');
}

/**
 * Adds a key that signs every QR code issued from now on (once each process's cache has refreshed). The older
 * keys keep verifying the QR codes they signed until they are retired.
 */
export async function rotateTicketKey(deps: { db: Knex; logger: Logger; keys?: TicketKeys }): Promise<string> {
  const kid = await deps.db.transaction(async (trx) => {
    await lockSigningKeys(trx);
    const key = generateKeyMaterial();
    await insertSigningKey(trx, key);
    return key.kid;
  });
  await deps.keys?.refresh();
  deps.logger.info({ kid }, 'ticket signing key rotated');
  return kid;
}

/** Retires a key (say, leaked): the QR codes it signed are refused from the next key refresh on. */
export async function retireTicketKey(deps: { db: Knex; logger: Logger; keys?: TicketKeys }, kid: string) {
  const retired = await retireSigningKey(deps.db, kid);
  await deps.keys?.refresh();
  if (retired) deps.logger.info({ kid }, 'ticket signing key retired');
  return retired;
}
