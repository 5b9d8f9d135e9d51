import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import {
  AuthUnavailable,
  ERASED_SESSION,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  cachedSessions,
  createTokenVerifier,
  unauthorized,
  writeSessionState,
  type AuthUser,
  type Knex,
  type Logger,
  type Redis,
  type SessionState,
  type TokenVerifier,
} from '@ticketing/platform';
import type { IdentitySettings } from '../config.ts';
import { revokedTokenIds } from '../data/revoked-tokens-repository.ts';
import { findSessionVersion, findUserById } from '../data/users-repository.ts';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.ts';
import { messages, rolesOf, type IdentityDeps, type Session, type User } from './user.ts';

/** Signs a session token for `user`: 12 hours, or 7 days when the user asked to be remembered (configurable). */
export async function issueToken(
  deps: Pick<IdentityDeps, 'keys' | 'settings'>,
  user: User,
  { remember = false }: { remember?: boolean } = {},
): Promise<string> {
  const key = await deps.keys.current();
  const lifetime = remember ? deps.settings.rememberTtlSeconds : deps.settings.tokenTtlSeconds;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: user.email,
    name: user.name,
    roles: rolesOf(deps.settings, user),
    ver: user.sessionVersion,
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(key.privateKey);
}

export type SessionUser = AuthUser & Session;

/** Do not read the store again for an unknown key id more often than this (garbage tokens cost nothing). */
const UNKNOWN_KEY_REFRESH_MS = 5_000;

/**
 * Where an account's sessions stand, from identity's database: every other service's cache asks for it
 * (`GET /internal/sessions/:userId`). Undefined when the id names no account.
 */
export async function sessionStateOf(db: Knex, userId: string): Promise<SessionState | undefined> {
  const account = await findSessionVersion(db, userId);
  if (!account) return undefined;
  if (account.deleted) return ERASED_SESSION;
  return { version: account.sessionVersion, revoked: await revokedTokenIds(db, userId) };
}

/**
 * Verifies tokens the way every other service does (signature, issuer, audience, expiry, session state cached in
 * Redis), against the service's own key store and database instead of its published JWKS and internal route.
 */
export function createSessionVerifier(
  keys: SigningKeys,
  settings: Pick<IdentitySettings, 'tokenTtlSeconds'>,
  { db, redis }: { db: Knex; redis: Redis },
): (token: string) => Promise<SessionUser> {
  // The key store is identity's database: when it does not answer, the token is not judged (503, not 401).
  const storeAnswer = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      throw new AuthUnavailable('signing keys unavailable', { cause: error });
    });
  const sessions = cachedSessions(redis, async (userId) => (await sessionStateOf(db, userId)) ?? ERASED_SESSION);
  let built: { jwks: JSONWebKeySet; verify: TokenVerifier } | undefined;
  let lastRefresh = 0;
  return async (token) => {
    const { kid } = decodeProtectedHeader(token);
    let jwks = await storeAnswer(keys.published());
    if (!jwks.keys.some((key) => key.kid === kid) && Date.now() - lastRefresh > UNKNOWN_KEY_REFRESH_MS) {
      lastRefresh = Date.now();
      jwks = await storeAnswer(keys.refresh());
    }
    if (built?.jwks !== jwks) built = { jwks, verify: createTokenVerifier(jwks, sessions) };
    const user = await built.verify(token);
    const claims = decodeJwt(token);
    const lifetime = (claims.exp ?? 0) - (claims.iat ?? 0);
    return {
      ...user,
      userId: user.id,
      sessionVersion: typeof claims.ver === 'number' ? claims.ver : 0,
      expiresAt: new Date((claims.exp ?? 0) * 1000),
      remembered: lifetime > settings.tokenTtlSeconds,
    };
  };
}

/**
 * The account behind a verified token. The database has the last word: a deleted account, or a token older
 * than the account's session version, is refused even if the cache has not heard of it.
 */
export async function sessionUser(deps: Pick<IdentityDeps, 'db'>, session: Session): Promise<User> {
  const user = await findUserById(deps.db, session.userId);
  if (!user || session.sessionVersion < user.sessionVersion) throw unauthorized(messages.sessionInvalid);
  return user;
}

/**
 * Tells every service's verifier where the account's sessions stand now (after the commit that changed it).
 * The database stays the truth: when Redis misses the write, the cached state is dropped or expires, and the
 * next check asks again.
 */
export async function publishSessionState(
  deps: { db: Knex; redis: Redis; logger: Logger },
  userId: string,
): Promise<void> {
  try {
    const state = (await sessionStateOf(deps.db, userId)) ?? ERASED_SESSION;
    await writeSessionState(deps.redis, userId, state);
  } catch (error) {
    deps.logger.error({ err: error, userId }, 'session state not published');
  }
}
