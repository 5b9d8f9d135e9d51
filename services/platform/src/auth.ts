import type { Middleware } from 'koa';
import {
  SignJWT,
  createLocalJWKSet,
  errors,
  jwtVerify,
  type CryptoKey,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  type JWTVerifyOptions,
  type JWTVerifyResult,
} from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { ROLE_REQUIRED, ROLES, sessionStateViewSchema, type Role } from '@ticketing/proto';
import { AppError, forbidden, unauthorized } from './errors.ts';
import { CollaboratorError, type JsonClient } from './http/json-client.ts';
import type { Logger } from './logger.ts';
import type { Redis } from './redis.ts';

export const TOKEN_ISSUER = 'ticketing-identity';
export const TOKEN_AUDIENCE = 'ticketing';
export const TOKEN_ALGORITHMS = ['EdDSA', 'ES256'];

/** Who is calling, as the identity service vouched for it in the signed token. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  /** The token's roles that the account still holds. */
  roles: Role[];
  isAdmin: boolean;
  /** The session (`sid`) the token belongs to: one login and the renewals that followed it. */
  sessionId: string;
  /** The token's own id (`jti`). */
  tokenId: string | undefined;
}

export type TokenVerifier = (token: string) => Promise<AuthUser>;

/**
 * The token could not be checked because something the check needs (identity's keys, the session store) did not
 * answer. It says nothing about the token: the caller answers 503 and the browser keeps its session.
 */
export class AuthUnavailable extends Error {}

const UNAVAILABLE_MESSAGE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';
const SESSION_INVALID = 'Sessão inválida ou expirada. Faça login novamente.';

/**
 * Where an account's sessions stand, from identity's database: its roles now, and each open session (`sid`) with
 * the generation of its one current token (a renewal raises it) and its absolute end (epoch seconds). A token is
 * good only while its session is listed with its generation; a session logged out or ended is simply absent.
 */
export interface SessionState {
  roles: Role[];
  sessions: Record<string, { generation: number; endsAt: number }>;
}

/** The state of an account that does not exist (or no longer does): no token of it is good. */
export const NO_SESSIONS: SessionState = { roles: [], sessions: {} };
/** How long a signed state is good for: bounds how far a cached state can lag behind identity's database. */
export const SESSION_CACHE_SECONDS = 600;
export const sessionStateKey = (userId: string) => `auth:session:${userId}`;

// A signed state is a JWT of its own kind: neither it nor a session token can pass for the other.
const STATE_AUDIENCE = 'ticketing-session-state';
const STATE_TYPE = 'session-state+jwt';
// Identity's clock and a verifier's may differ a little: a state signed "in the future" is still fresh.
const STATE_CLOCK_TOLERANCE_SECONDS = 30;

const stateClaims = z.object({
  roles: z.array(z.enum(ROLES)),
  sessions: z.record(z.string(), z.object({ generation: z.number().int(), endsAt: z.number() })),
  iat: z.number(),
});

/**
 * Identity signs each state with its token signing key (the keys every verifier already loads), with an issued-at:
 * whoever can write Redis can neither make a state up nor bring back one older than `SESSION_CACHE_SECONDS`.
 */
export function signSessionState(
  key: { kid: string; privateKey: CryptoKey; alg: string },
  userId: string,
  state: SessionState,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({ roles: state.roles, sessions: state.sessions })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: STATE_TYPE })
    .setSubject(userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(STATE_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_CACHE_SECONDS)
    .sign(key.privateKey);
}

interface CheckedState extends SessionState {
  /** When identity signed it (epoch seconds). */
  issuedAt: number;
}

/** How long a JWT found good is taken as good again without checking its signature (never up to its expiry). */
const REMEMBERED_MS = 60_000;

/**
 * jwtVerify, remembering for each exact JWT that it passed: a door phone's readings all carry the same token and
 * meet the same cached session state, and each signature check is a trip to the crypto thread pool. Each kind of JWT
 * has a memory of its own, so a string checked as one kind never passes for another; a key withdrawn is no longer
 * trusted after `REMEMBERED_MS`.
 */
function rememberedJwtVerify(getKey: JWTVerifyGetKey, options: JWTVerifyOptions) {
  const passed = new LRUCache<string, JWTVerifyResult>({ max: 10_000 });
  return async (jwt: string): Promise<JWTVerifyResult> => {
    const remembered = passed.get(jwt);
    if (remembered) return remembered;
    const result = await jwtVerify(jwt, getKey, options);
    // Forgotten a second before it expires, so the cache's own clock never carries it past.
    const ttl = Math.min(REMEMBERED_MS, (result.payload.exp ?? 0) * 1000 - Date.now() - 1000);
    if (ttl > 0) passed.set(jwt, result, { ttl });
    return result;
  };
}

/** Checks a signed state: signed by identity, fresh, and the account's own. */
function sessionStateChecker(getKey: JWTVerifyGetKey) {
  const verify = rememberedJwtVerify(getKey, {
    issuer: TOKEN_ISSUER,
    audience: STATE_AUDIENCE,
    typ: STATE_TYPE,
    algorithms: TOKEN_ALGORITHMS,
    maxTokenAge: SESSION_CACHE_SECONDS,
    requiredClaims: ['exp'],
    clockTolerance: STATE_CLOCK_TOLERANCE_SECONDS,
  });
  return async (signed: string, userId: string): Promise<CheckedState> => {
    const { payload } = await verify(signed);
    // Checked on every use, remembered or not: another account's state copied under this key is refused.
    if (payload.sub !== userId) throw new Error('session state of another account');
    const { roles, sessions, iat } = stateClaims.parse(payload);
    return { roles, sessions, issuedAt: iat };
  };
}

/** Identity writes the signed state after every change, replacing what verifiers cached; a Redis away fails fast. */
export async function writeSessionState(redis: Redis, userId: string, signed: string): Promise<void> {
  if (redis.status !== 'ready') throw new Error(`redis ${redis.status}`);
  await withinCacheTimeout(redis.set(sessionStateKey(userId), signed, 'EX', SESSION_CACHE_SECONDS));
}

/**
 * Signed session states, where verifiers look for them: `cached` is what the cache holds (null: nothing; undefined:
 * the cache is out of reach), `fresh` asks the source of truth (undefined: no such account) and puts its answer in
 * place of `replacing`, the cached value found unusable.
 */
export interface SessionStore {
  cached(userId: string): Promise<string | null | undefined>;
  fresh(userId: string, replacing: string | null | undefined): Promise<string | undefined>;
}

/** Reads an account's signed state from the source of truth; throws `AuthUnavailable` when it cannot be reached. */
export type SessionSource = (userId: string) => Promise<string | undefined>;

// A Redis that hangs must not hang every request: past this the source of truth is asked instead.
const CACHE_TIMEOUT_MS = 500;

async function withinCacheTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('redis timeout')), CACHE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    // Every token check passes here: no timer outlives its answer.
    clearTimeout(timer);
  }
}

/**
 * Sets the key to the fresh state only if it still holds what the verifier found there (nothing, or the unusable
 * value): a state identity wrote meanwhile is never overwritten by an older read.
 */
const REPLACE_IF_UNCHANGED = `
local current = redis.call('GET', KEYS[1])
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
end
return false`;

/**
 * Session states through Redis. What the cache lacks, or holds unusable (unsigned, altered, too old), is asked of
 * `source` (identity) and cached only if nothing newer was written meanwhile, so a Redis restart neither logs anyone
 * out nor brings a revoked token back; with Redis down every check goes to the source, without waiting on Redis
 * while it reconnects.
 */
export function cachedSessions(redis: Redis, source: SessionSource): SessionStore {
  // While Redis reconnects, asking it would only add its timeout to every check: the source answers at once.
  const reachable = () => redis.status === 'ready' || redis.status === 'wait';
  return {
    async cached(userId) {
      if (!reachable()) return undefined;
      return withinCacheTimeout(redis.get(sessionStateKey(userId))).catch(() => undefined);
    },
    async fresh(userId, replacing) {
      const signed = await source(userId);
      if (signed && replacing !== undefined && reachable()) {
        redis
          .eval(REPLACE_IF_UNCHANGED, 1, sessionStateKey(userId), replacing ?? '', signed, SESSION_CACHE_SECONDS)
          .catch(() => {});
      }
      return signed;
    },
  };
}

/** What a token says of its session, to judge whether a cached state knew of it. */
interface TokenSession {
  sessionId: string;
  generation: number;
  roles: Role[];
  issuedAt: number;
}

const grants = (state: SessionState, token: TokenSession, now: number) => {
  const session = state.sessions[token.sessionId];
  return session !== undefined && session.generation === token.generation && session.endsAt > now;
};

/**
 * The state to judge `token` by. A cached state that was signed after the token was issued knew of it and is final;
 * one that does not fully grant a newer token (a login, a renewal, a role since given) is asked again of the source.
 */
function sessionStates(store: SessionStore, getKey: JWTVerifyGetKey) {
  const unavailable = (error: unknown): never => {
    throw error instanceof AuthUnavailable ? error : new AuthUnavailable('session state unavailable', { cause: error });
  };
  const checkSessionState = sessionStateChecker(getKey);
  return async (userId: string, token: TokenSession): Promise<SessionState> => {
    const now = Date.now() / 1000;
    const cached = await store.cached(userId);
    const usable = cached ? await checkSessionState(cached, userId).catch(() => undefined) : undefined;
    if (usable) {
      const complete = grants(usable, token, now) && token.roles.every((role) => usable.roles.includes(role));
      if (complete || usable.issuedAt > token.issuedAt) return usable;
    }
    const fresh = await store.fresh(userId, cached).catch(unavailable);
    if (!fresh) return NO_SESSIONS;
    // The source's own answer failing its check is no verdict on the token.
    return checkSessionState(fresh, userId).catch(unavailable);
  };
}

/** Keys are reloaded after this long, in the background; a reload (also for an unknown key) is tried at most every 30 s. */
const KEYS_MAX_AGE_MS = 10 * 60_000;
const KEYS_RETRY_MS = 30_000;

/**
 * Identity's published keys, loaded once and refreshed in the background; a token naming an unknown key makes one
 * reload (a rotation). Verification never stops because a refresh failed while good keys are at hand.
 */
export function cachedKeySet(
  load: () => Promise<JSONWebKeySet>,
  { logger, retryMs = KEYS_RETRY_MS }: { logger?: Logger; retryMs?: number } = {},
): JWTVerifyGetKey {
  let current: { getKey: JWTVerifyGetKey; loadedAt: number } | undefined;
  let pending: Promise<void> | undefined;
  let lastAttempt = 0;
  const reload = () =>
    (pending ??= (async () => {
      lastAttempt = Date.now();
      try {
        current = { getKey: createLocalJWKSet(await load()), loadedAt: Date.now() };
      } catch (error) {
        logger?.warn({ err: error }, 'signing keys not refreshed');
        throw new AuthUnavailable('signing keys unavailable', { cause: error });
      } finally {
        pending = undefined;
      }
    })());
  const mayRetry = () => Date.now() - lastAttempt >= retryMs;

  return async (header, token) => {
    if (!current) await reload();
    else if (Date.now() - current.loadedAt > KEYS_MAX_AGE_MS && mayRetry()) reload().catch(() => {});
    try {
      return await current!.getKey(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || !mayRetry()) throw error;
      await reload();
      return current!.getKey(header, token);
    }
  };
}

/** Fetches a JWKS document (identity's `/.well-known/jwks.json`). */
export function fetchKeys(url: string, timeoutMs = 5000): () => Promise<JSONWebKeySet> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return (await response.json()) as JSONWebKeySet;
  };
}

const KNOWN_ROLES = new Set<string>(ROLES);

/**
 * Verifies tokens locally against identity's keys, then, when given the session states, against the account's:
 * the token's session must be open at the token's generation, and only the roles the account still holds count.
 */
export function createTokenVerifier(keys: JSONWebKeySet | JWTVerifyGetKey, sessions?: SessionStore): TokenVerifier {
  const getKey = typeof keys === 'function' ? keys : createLocalJWKSet(keys);
  const stateOf = sessions && sessionStates(sessions, getKey);
  const verify = rememberedJwtVerify(getKey, {
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    algorithms: TOKEN_ALGORITHMS,
  });
  return async (token) => {
    const { payload } = await verify(token);
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('token without subject');
    if (typeof payload.sid !== 'string') throw new Error('token without session');
    let roles = (Array.isArray(payload.roles) ? payload.roles : []).filter((role): role is Role =>
      KNOWN_ROLES.has(role as string),
    );
    if (stateOf) {
      const session: TokenSession = {
        sessionId: payload.sid,
        generation: typeof payload.gen === 'number' ? payload.gen : -1,
        roles,
        issuedAt: payload.iat ?? 0,
      };
      const state = await stateOf(payload.sub, session);
      if (!grants(state, session, Date.now() / 1000)) throw new Error('session ended');
      roles = roles.filter((role) => state.roles.includes(role));
    }
    return {
      id: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : '',
      roles,
      isAdmin: roles.includes('admin'),
      sessionId: payload.sid,
      tokenId: typeof payload.jti === 'string' ? payload.jti : undefined,
    };
  };
}

function bearer(header: string): string | undefined {
  const match = /^Bearer (\S{1,4096})$/.exec(header);
  return match?.[1];
}

/**
 * Sets `ctx.state.user` from a valid token and refuses the request otherwise (401). When the check itself could not
 * run the answer is 503: the person is still logged in and should try again, not log in again.
 */
export function requireUser(verify: TokenVerifier): Middleware {
  return async (ctx, next) => {
    const token = bearer(ctx.get('authorization'));
    if (!token) throw unauthorized();
    ctx.state.user = await verify(token).catch((error) => {
      throw error instanceof AuthUnavailable ? new AppError(503, UNAVAILABLE_MESSAGE) : unauthorized(SESSION_INVALID);
    });
    await next();
  };
}

export { ROLE_REQUIRED };

/** As `requireUser`, and the caller must hold one of `roles` (403 naming the first). */
export function requireRole(verify: TokenVerifier, roles: readonly [Role, ...Role[]]): Middleware {
  const authenticate = requireUser(verify);
  return (ctx, next) =>
    authenticate(ctx, async () => {
      const user = ctx.state.user as AuthUser;
      if (!roles.some((role) => user.roles.includes(role))) throw forbidden(ROLE_REQUIRED[roles[0]]);
      await next();
    });
}

/** As `requireUser`, and the caller must be an administrator (403). */
export const requireAdmin = (verify: TokenVerifier): Middleware => requireRole(verify, ['admin']);

/** Identity's own answer, for a verifier whose cache has nothing usable: an unknown account has no valid token. */
export function identitySessions(identity: JsonClient): SessionSource {
  return async (userId) => {
    try {
      const { state } = await identity.call(
        'GET',
        `/internal/sessions/${encodeURIComponent(userId)}`,
        sessionStateViewSchema,
      );
      return state;
    } catch (error) {
      if (error instanceof CollaboratorError && error.status === 404) return undefined;
      throw new AuthUnavailable('identity unavailable', { cause: error });
    }
  };
}
