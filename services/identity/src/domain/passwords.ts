import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { badRequest } from '@ticketing/platform';
import { identityMessages } from '@ticketing/proto';

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

/**
 * The most common passwords of 8 characters or more (the leaked-password ranking zxcvbn ships, plus Brazilian
 * favourites), lower-case: the first a guesser tries, so nobody may choose one.
 */
const COMMON_PASSWORDS = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0),
);

/** Refuses a password a person chooses when it is a common one (its length is the schema's rule). */
export function assertUncommonPassword(password: string): void {
  if (COMMON_PASSWORDS.has(password.toLowerCase())) throw badRequest(identityMessages.commonPassword);
}
