import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// The package's `Algorithm` is a const enum, which type stripping cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

let dummyHash: Promise<string> | undefined;

/** A hash of a random password made with the same settings, checked when there is no account to check. */
export function prepareDummyHash(): Promise<string> {
  return (dummyHash ??= hashPassword(randomBytes(32).toString('base64url')));
}

/**
 * Whether `password` is the one behind `passwordHash`. Without a hash (no such account, or a deleted one) a
 * dummy hash is checked anyway, so the answer takes the same time and tells nothing.
 */
export async function passwordMatches(passwordHash: string | null, password: string): Promise<boolean> {
  const target = passwordHash ?? (await prepareDummyHash());
  const matches = await verify(target, password).catch(() => false);
  return passwordHash !== null && matches;
}
