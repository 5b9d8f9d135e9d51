import type { Middleware } from 'koa';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { forbidden, unauthorized } from './errors.ts';
import type { Redis } from './redis.ts';

export const TOKEN_ISSUER = 'ticketing-identity';
export const TOKEN_AUDIENCE = 'ticketing';
export const TOKEN_ALGORITHMS = ['EdDSA', 'ES256'];

/** Who is calling, as the identity service vouched for it in the signed token. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

export type TokenVerifier = (token: string) => Promise<AuthUser>;

/**
 * Tokens carry the user's session version (`ver`). Identity raises it when a password changes or an account is
 * deleted and keeps the current one in Redis under this key, so every service rejects the older tokens.
 */
export const sessionVersionKey = (userId: string) => `auth:session-version:${userId}`;

export interface SessionVersions {
  current(userId: string): Promise<number>;
}

export function redisSessionVersions(redis: Redis): SessionVersions {
  return { current: async (userId) => Number((await redis.get(sessionVersionKey(userId))) ?? 0) };
}

/** Verifies tokens locally against the identity service's published keys (cached, refetched on an unknown key id). */
export function createTokenVerifier(keys: string | JSONWebKeySet, sessions?: SessionVersions): TokenVerifier {
  const keySet: JWTVerifyGetKey =
    typeof keys === 'string'
      ? createRemoteJWKSet(new URL(keys), { cooldownDuration: 30_000 })
      : createLocalJWKSet(keys);
  return async (token) => {
    const { payload } = await jwtVerify(token, keySet, {
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      algorithms: TOKEN_ALGORITHMS,
    });
    if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('token without subject');
    const version = typeof payload.ver === 'number' ? payload.ver : 0;
    if (sessions && version < (await sessions.current(payload.sub))) throw new Error('session revoked');
    return {
      id: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : '',
      isAdmin: payload.adm === true,
    };
  };
}

const SESSION_INVALID = 'Sessão inválida ou expirada. Faça login novamente.';

function bearer(header: string): string | undefined {
  const match = /^Bearer (\S{1,4096})$/.exec(header);
  return match?.[1];
}

/** Sets `ctx.state.user` from a valid token and refuses the request otherwise (401). */
export function requireUser(verify: TokenVerifier): Middleware {
  return async (ctx, next) => {
    const token = bearer(ctx.get('authorization'));
    if (!token) throw unauthorized();
    ctx.state.user = await verify(token).catch(() => {
      throw unauthorized(SESSION_INVALID);
    });
    await next();
  };
}

/** As `requireUser`, and the caller must be an administrator (403). */
export function requireAdmin(verify: TokenVerifier): Middleware {
  const authenticate = requireUser(verify);
  return (ctx, next) =>
    authenticate(ctx, async () => {
      if (!(ctx.state.user as AuthUser).isAdmin) throw forbidden('Acesso restrito a administradores');
      await next();
    });
}
