import { SignJWT, decodeJwt, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import {
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  createTokenVerifier,
  sessionVersionKey,
  unauthorized,
  type AuthUser,
  type Knex,
  type Logger,
  type Redis,
  type TokenVerifier,
} from '@ticketing/platform';
import type { IdentitySettings } from '../config.ts';
import { findUserById, raisedSessionVersions } from '../data/users-repository.ts';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.ts';
import { messages, type IdentityDeps, type Session, type User } from './user.ts';

/** Signs a session token for `user`: 12 hours, or 7 days when the user asked to be remembered (configurable). */
export async function issueToken(
  deps: Pick<IdentityDeps, 'keys' | 'settings'>,
  user: User,
  { remember = false }: { remember?: boolean } = {},
): Promise<string> {
  const key = await deps.keys.current();
  const lifetime = remember ? deps.settings.rememberTtlSeconds : deps.settings.tokenTtlSeconds;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: user.email, name: user.name, adm: user.isAdmin, ver: user.sessionVersion })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(key.privateKey);
}

export type SessionUser = AuthUser & Session;

/** Do not read the store again for an unknown key id more often than this (garbage tokens cost nothing). */
const UNKNOWN_KEY_REFRESH_MS = 5_000;

/**
 * Verifies tokens the way every other service does (signature, issuer, audience, expiry, session version in
 * Redis), against the service's own key store instead of its published JWKS.
 */
export function createSessionVerifier(
  keys: SigningKeys,
  settings: Pick<IdentitySettings, 'tokenTtlSeconds'>,
  versions: Parameters<typeof createTokenVerifier>[1],
): (token: string) => Promise<SessionUser> {
  let built: { jwks: JSONWebKeySet; verify: TokenVerifier } | undefined;
  let lastRefresh = 0;
  return async (token) => {
    const { kid } = decodeProtectedHeader(token);
    let jwks = await keys.published();
    if (!jwks.keys.some((key) => key.kid === kid) && Date.now() - lastRefresh > UNKNOWN_KEY_REFRESH_MS) {
      lastRefresh = Date.now();
      jwks = await keys.refresh();
    }
    if (built?.jwks !== jwks) built = { jwks, verify: createTokenVerifier(jwks, versions) };
    const user = await built.verify(token);
    const claims = decodeJwt(token);
    const lifetime = (claims.exp ?? 0) - (claims.iat ?? 0);
    return {
      ...user,
      userId: user.id,
      sessionVersion: typeof claims.ver === 'number' ? claims.ver : 0,
      remembered: lifetime > settings.tokenTtlSeconds,
    };
  };
}

/**
 * The account behind a verified token. The database has the last word: a deleted account, or a token older
 * than the account's session version, is refused even if Redis has not heard of it.
 */
export async function sessionUser(deps: Pick<IdentityDeps, 'db'>, session: Session): Promise<User> {
  const user = await findUserById(deps.db, session.userId);
  if (!user || session.sessionVersion < user.sessionVersion) throw unauthorized(messages.sessionInvalid);
  return user;
}

// Only ever raises the stored version: two password changes finishing out of order cannot lower it.
const RAISE_VERSION = `
local current = tonumber(redis.call('get', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('set', KEYS[1], ARGV[1]) end
return 1`;

/**
 * Tells every service's verifier the account's new session version (after the commit that raised it). The
 * database stays the truth: a failure here is logged, and the next start copies every version again.
 */
export async function publishSessionVersion(
  deps: { redis: Redis; logger: Logger },
  user: Pick<User, 'id' | 'sessionVersion'>,
): Promise<void> {
  try {
    await deps.redis.eval(RAISE_VERSION, 1, sessionVersionKey(user.id), String(user.sessionVersion));
  } catch (error) {
    deps.logger.error({ err: error, userId: user.id }, 'session version not published');
  }
}

/** Copies every raised session version to Redis (which keeps nothing on disk); returns how many. */
export async function syncSessionVersions(deps: { db: Knex; redis: Redis; logger: Logger }): Promise<number> {
  let afterId: string | null = null;
  let total = 0;
  for (;;) {
    const page = await raisedSessionVersions(deps.db, afterId, 1000);
    if (page.length === 0) break;
    const pipeline = deps.redis.pipeline();
    for (const user of page) pipeline.eval(RAISE_VERSION, 1, sessionVersionKey(user.id), String(user.sessionVersion));
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    total += page.length;
    afterId = page.at(-1)!.id;
  }
  deps.logger.info({ users: total }, 'session versions published');
  return total;
}
