import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import {
  AuthUnavailable,
  NO_SESSIONS,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  cachedSessions,
  createTokenVerifier,
  signSessionState,
  unauthorized,
  writeSessionState,
  type AuthUser,
  type Knex,
  type Redis,
  type SessionState,
  type TokenVerifier,
} from '@ticketing/platform';
import type { Role } from '@ticketing/proto';
import type { IdentitySettings } from '../config.ts';
import {
  findOpenSession,
  insertSession,
  lockAccount,
  openSessionsOf,
  type SessionRecord,
} from '../data/sessions-repository.ts';
import { accountExists, findUserById } from '../data/users-repository.ts';
import { SIGNING_ALGORITHM, type SigningKey, type SigningKeys } from './signing-keys.ts';
import { messages, rolesOf, type IdentityDeps, type Session, type User } from './user.ts';

/** How long a session of these roles may last in all, from its login: a door shift, or a buyer's day or week. */
export function sessionMaxAge(settings: IdentitySettings, roles: Role[], remembered: boolean): number {
  const { normal, remembered: long, doorStaff } = settings.sessionMaxAge;
  if (roles.includes('doorStaff')) return doorStaff;
  return remembered ? long : normal;
}

/**
 * Signs the token of `session`'s current generation: 12 hours, or 7 days when the user asked to be remembered
 * (configurable), and never past the session's end.
 */
export async function signSessionToken(
  deps: Pick<IdentityDeps, 'keys' | 'settings'>,
  user: User,
  session: SessionRecord,
): Promise<string> {
  const key = await deps.keys.current();
  const lifetime = session.remembered ? deps.settings.rememberTtlSeconds : deps.settings.tokenTtlSeconds;
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    email: user.email,
    name: user.name,
    roles: rolesOf(deps.settings, user),
    sid: session.id,
    gen: session.generation,
    ...(session.remembered ? { rmb: true } : {}),
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(Math.min(now + lifetime, Math.floor(session.endsAt.getTime() / 1000)))
    .sign(key.privateKey);
}

/** What opening a session and publishing its state need. */
type PublishDeps = Pick<IdentityDeps, 'db' | 'keys' | 'settings' | 'redis' | 'logger'>;

/** Opens a new session for `user` (a login, a verified e-mail, a new password) and signs its first token. */
export async function issueToken(
  deps: PublishDeps,
  user: User,
  { remember = false }: { remember?: boolean } = {},
): Promise<string> {
  const session = await deps.db.transaction((trx) =>
    insertSession(trx, {
      userId: user.id,
      remembered: remember,
      maxAgeSeconds: sessionMaxAge(deps.settings, rolesOf(deps.settings, user), remember),
      keep: deps.settings.sessionsPerAccount,
    }),
  );
  await publishSessionState(deps, user.id);
  return signSessionToken(deps, user, session);
}

export type SessionUser = AuthUser & Session;

/** Do not read the store again for an unknown key id more often than this (garbage tokens cost nothing). */
const UNKNOWN_KEY_REFRESH_MS = 5_000;

type StateDeps = Pick<IdentityDeps, 'db' | 'keys' | 'settings'>;

/**
 * Where an account's sessions stand, from identity's database: its roles now and its open sessions. Undefined when
 * the id names no account; a deleted account has neither.
 */
async function sessionStateOf(deps: StateDeps, userId: string): Promise<SessionState | undefined> {
  const user = await findUserById(deps.db, userId);
  if (!user) return (await accountExists(deps.db, userId)) ? NO_SESSIONS : undefined;
  const sessions: SessionState['sessions'] = {};
  for (const session of await openSessionsOf(deps.db, userId)) {
    sessions[session.id] = { generation: session.generation, endsAt: Math.floor(session.endsAt.getTime() / 1000) };
  }
  return { roles: rolesOf(deps.settings, user), sessions };
}

/**
 * The account's state signed with the token signing key, as every other service's cache asks for it
 * (`GET /internal/sessions/:userId`) and as Redis keeps it. Undefined when the id names no account.
 */
export async function signedSessionState(
  deps: StateDeps,
  userId: string,
  key?: SigningKey,
): Promise<string | undefined> {
  const signing = key ?? (await deps.keys.current());
  const state = await sessionStateOf(deps, userId);
  return state && signSessionState({ ...signing, alg: SIGNING_ALGORITHM }, userId, state);
}

/**
 * Verifies tokens the way every other service does (signature, issuer, audience, expiry, signed session state
 * cached in Redis), against the service's own key store and database instead of its published JWKS and internal
 * route. Without `stores` only the token itself is checked: renewal judges the session in the database.
 */
export function createSessionVerifier(
  keys: SigningKeys,
  settings: IdentitySettings,
  stores?: { db: Knex; redis: Redis },
): (token: string) => Promise<SessionUser> {
  // The key store is identity's database: when it does not answer, the token is not judged (503, not 401).
  const storeAnswer = <T>(work: Promise<T>) =>
    work.catch((error: unknown) => {
      throw new AuthUnavailable('signing keys unavailable', { cause: error });
    });
  const sessions =
    stores && cachedSessions(stores.redis, (userId) => signedSessionState({ ...stores, keys, settings }, userId));
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
    return {
      ...user,
      userId: user.id,
      generation: typeof claims.gen === 'number' ? claims.gen : -1,
      expiresAt: new Date((claims.exp ?? 0) * 1000),
      remembered: claims.rmb === true,
    };
  };
}

/**
 * The account behind a verified token. The database has the last word: a deleted account, or a session ended or
 * moved on to a newer token, is refused even if the cache has not heard of it.
 */
export async function sessionUser(deps: Pick<IdentityDeps, 'db'>, session: Session): Promise<User> {
  const user = await findUserById(deps.db, session.userId);
  const open = user && (await findOpenSession(deps.db, session));
  if (!user || open?.generation !== session.generation) throw unauthorized(messages.sessionInvalid);
  return user;
}

/**
 * The account's signed state, read from the database and written to Redis under the account's row lock, so the last
 * state written is the newest. Undefined when the id names no account. The database stays the truth: when Redis
 * misses the write, the cached state expires, and tokens newer than it are asked about again.
 */
export async function refreshSessionState(deps: PublishDeps, userId: string): Promise<string | undefined> {
  // Taken first: the key store's read must not wait for a connection while this one holds the lock.
  const key = await deps.keys.current();
  return deps.db.transaction(async (trx) => {
    if (!(await lockAccount(trx, userId))) return undefined;
    const signed = await signedSessionState({ ...deps, db: trx }, userId, key);
    if (signed) {
      await writeSessionState(deps.redis, userId, signed).catch((error: unknown) => {
        deps.logger.warn({ err: error, userId }, 'session state not cached');
      });
    }
    return signed;
  });
}

/** Tells every service's verifier where the account's sessions stand now (after the commit that changed it). */
export async function publishSessionState(deps: PublishDeps, userId: string): Promise<void> {
  try {
    await refreshSessionState(deps, userId);
  } catch (error) {
    deps.logger.error({ err: error, userId }, 'session state not published');
  }
}
