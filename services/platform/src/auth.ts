import type { Middleware } from 'koa';
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { ROLES, type Role } from '@ticketing/proto';
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
  roles: Role[];
  isAdmin: boolean;
  /** The token's own id (`jti`), which logging out revokes. */
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
 * Where an account's sessions stand: tokens older than `version` are void (a password change, a deletion), and so
 * is each token whose id is in `revoked` (logged out). Identity's database holds it; Redis caches it.
 */
export interface SessionState {
  version: number;
  revoked: string[];
}

/** The state of an account that no longer exists: no token of it is good. */
export const ERASED_SESSION: SessionState = { version: Number.MAX_SAFE_INTEGER, revoked: [] };
/** Bounds how long a cached state can lag behind identity's database if an update to Redis was lost. */
export const SESSION_CACHE_SECONDS = 600;
export const sessionStateKey = (userId: string) => `auth:session:${userId}`;

/** Reads an account's session state; throws `AuthUnavailable` when the truth cannot be reached. */
export type SessionSource = (userId: string) => Promise<SessionState>;

/** Identity writes the state after every change, replacing what verifiers cached. */
export async function writeSessionState(redis: Redis, userId: string, state: SessionState): Promise<void> {
  await redis.set(sessionStateKey(userId), JSON.stringify(state), 'EX', SESSION_CACHE_SECONDS);
}

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
 * Session states through Redis. A miss asks `source` (identity's database) and caches the answer only if nothing
 * newer was written meanwhile (SET NX), so a Redis restart neither logs anyone out nor brings a revoked token back;
 * with Redis down every check goes to the source, without waiting on Redis while it reconnects.
 */
export function cachedSessions(redis: Redis, source: SessionSource): SessionSource {
  return async (userId) => {
    const key = sessionStateKey(userId);
    // While Redis reconnects, asking it would only add its timeout to every check: the source answers at once.
    const reachable = redis.status === 'ready' || redis.status === 'wait';
    const cached = reachable ? await withinCacheTimeout(redis.get(key)).catch(() => undefined) : undefined;
    if (cached) return JSON.parse(cached) as SessionState;
    const state = await source(userId);
    if (cached === null) redis.set(key, JSON.stringify(state), 'EX', SESSION_CACHE_SECONDS, 'NX').catch(() => {});
    return state;
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

/** Verifies tokens locally against identity's keys, then against the account's session state when given one. */
export function createTokenVerifier(keys: JSONWebKeySet | JWTVerifyGetKey, sessions?: SessionSource): TokenVerifier {
  const getKey = typeof keys === 'function' ? keys : createLocalJWKSet(keys);
  return async (token) => {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      algorithms: TOKEN_ALGORITHMS,
    });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('token without subject');
    const tokenId = typeof payload.jti === 'string' ? payload.jti : undefined;
    if (sessions) {
      const state = await sessions(payload.sub).catch((error) => {
        throw error instanceof AuthUnavailable
          ? error
          : new AuthUnavailable('session state unavailable', { cause: error });
      });
      const version = typeof payload.ver === 'number' ? payload.ver : 0;
      if (version < state.version) throw new Error('session ended');
      if (tokenId && state.revoked.includes(tokenId)) throw new Error('token revoked');
    }
    const roles = (Array.isArray(payload.roles) ? payload.roles : []).filter((role): role is Role =>
      KNOWN_ROLES.has(role as string),
    );
    return {
      id: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : '',
      roles,
      isAdmin: roles.includes('admin'),
      tokenId,
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

export const ROLE_REQUIRED = {
  admin: 'Acesso restrito a administradores',
  courtesyManager: 'Acesso restrito a quem gerencia cortesias',
  doorStaff: 'Acesso restrito à equipe de portaria',
} as const satisfies Record<Role, string>;

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

/** Identity's own answer, for a verifier whose cache has nothing: an unknown account has no valid token. */
export function identitySessions(identity: JsonClient): SessionSource {
  return async (userId) => {
    try {
      return await identity.call<SessionState>('GET', `/internal/sessions/${encodeURIComponent(userId)}`);
    } catch (error) {
      if (error instanceof CollaboratorError && error.status === 404) return ERASED_SESSION;
      throw new AuthUnavailable('identity unavailable', { cause: error });
    }
  };
}
