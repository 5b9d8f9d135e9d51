import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { z } from 'zod';
import { PRODUCERS } from '@ticketing/proto';

/**
 * An Ed25519 key written the way its JWK member holds it (RFC 8037): the 32 bytes of `d` (private) or `x` (public)
 * in base64url. One short line, at home in an environment variable, a Secret or a compose file.
 */
export const keyText = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be an Ed25519 key: 43 base64url characters');

/** `name:key` pairs separated by commas (`identity:Xy…,catalog:Ab…`), read as name → public key. */
export const publicKeyList = z.string().transform((text, ctx) => {
  const keys: Record<string, string> = {};
  for (const entry of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, key = ''] = entry.split(':');
    if (!name || !/^[a-z][a-z0-9-]*$/.test(name) || !keyText.safeParse(key).success || name in keys) {
      ctx.addIssue({ code: 'custom', message: 'must list name:key pairs (an Ed25519 public key each, names once)' });
      return z.NEVER;
    }
    keys[name] = key;
  }
  return keys;
});

/** What a service proves itself with: its own private key, and the public key of everyone it listens to. */
export interface ServiceKeys {
  /** The name it signs as: the issuer of its calls, the producer of its events. */
  name: string;
  privateKey: KeyObject;
  /** The key that checks what `name` signed; none for a service nobody told this one about. */
  publicKeyOf(name: string): KeyObject | undefined;
}

// The fixed DER header of a PKCS#8 Ed25519 private key, followed by the key's 32 bytes.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 private key whose 32 bytes `d` holds (base64url, as its JWK member). */
export const ed25519PrivateKey = (d: string): KeyObject =>
  createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(d, 'base64url')]), format: 'der', type: 'pkcs8' });

/** The Ed25519 public key whose 32 bytes `x` holds (base64url, as its JWK member). */
export const ed25519PublicKey = (x: string): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });

const publicTextOf = (privateText: string) =>
  createPublicKey(ed25519PrivateKey(privateText)).export({ format: 'jwk' }).x!;

/** `name`'s keys from its settings; its own public key is known to it even when the list leaves it out. */
export function serviceKeys(name: string, privateText: string, publicTexts: Record<string, string>): ServiceKeys {
  const own = publicTextOf(privateText);
  if (publicTexts[name] && publicTexts[name] !== own)
    throw new Error(`gives ${name} a key that is not the public half of SERVICE_KEY`);
  const publicKeys = new Map(Object.entries({ ...publicTexts, [name]: own }).map(([n, x]) => [n, ed25519PublicKey(x)]));
  return { name, privateKey: ed25519PrivateKey(privateText), publicKeyOf: (signer) => publicKeys.get(signer) };
}

/** Ed25519 signature of `data` (base64url). */
export const signBytes = (keys: ServiceKeys, data: Uint8Array) =>
  sign(null, data, keys.privateKey).toString('base64url');

/** Whether `signer` signed `data`; false for a signer without a known key. */
export function verifyBytes(keys: ServiceKeys, signer: string, data: Uint8Array, signature: string): boolean {
  const key = keys.publicKeyOf(signer);
  return key !== undefined && verify(null, data, key, Buffer.from(signature, 'base64url'));
}

/** The settings a set of services run with: each its own private key, all the same list of public keys. */
export interface KeyRing {
  privateKeys: Record<string, string>;
  /** SERVICE_PUBLIC_KEYS. */
  publicKeys: string;
  settings(name: string): { SERVICE_KEY: string; SERVICE_PUBLIC_KEYS: string };
  keys(name: string): ServiceKeys;
}

/** The ring of these private keys (name → key text). */
export function keyRing(privateKeys: Record<string, string>): KeyRing {
  const publicTexts = Object.fromEntries(Object.entries(privateKeys).map(([name, d]) => [name, publicTextOf(d)]));
  const publicKeys = Object.entries(publicTexts)
    .map(([name, x]) => `${name}:${x}`)
    .join(',');
  const privateOf = (name: string) => {
    const key = privateKeys[name];
    if (!key) throw new Error(`no key for ${name} in this key ring`);
    return key;
  };
  return {
    privateKeys,
    publicKeys,
    settings: (name) => ({ SERVICE_KEY: privateOf(name), SERVICE_PUBLIC_KEYS: publicKeys }),
    keys: (name) => serviceKeys(name, privateOf(name), publicTexts),
  };
}

/** A new key pair for each name. */
export function generateKeyRing(names: readonly string[]): KeyRing {
  return keyRing(
    Object.fromEntries(
      names.map((name) => [name, generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }).d!]),
    ),
  );
}

/**
 * The keys the compose file runs with on a laptop: derived from each name, so anyone can rebuild them; production
 * refuses them.
 */
export const developmentKeyRing = (names: readonly string[]): KeyRing =>
  keyRing(
    Object.fromEntries(
      names.map((name) => [
        name,
        createHash('sha256').update(`ticketing development service key: ${name}`).digest('base64url'),
      ]),
    ),
  );

const development = developmentKeyRing(PRODUCERS);
const developmentKeys = new Set(
  Object.values(development.privateKeys).flatMap((privateText) => [privateText, publicTextOf(privateText)]),
);

/** Whether a key, private or public, is one of the compose file's development keys. */
export const isDevelopmentKey = (text: string): boolean => developmentKeys.has(text);
