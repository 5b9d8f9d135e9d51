import type { Middleware } from 'koa';
import { SignJWT, jwtVerify } from 'jose';
import { forbidden, unauthorized } from './errors.ts';

/** Service tokens live a minute: long enough for one call and its retries, short enough to be useless if leaked. */
const TOKEN_LIFETIME_SECONDS = 60;
/** A cached token is renewed once less than this is left, so it never expires in flight. */
const RENEW_BEFORE_SECONDS = 20;
const ALGORITHM = 'HS256';

export const INTERNAL_CALL_REFUSED = 'Chamada interna não autorizada';

/**
 * How one service proves who it is to another: a short-lived token signed with the platform's service key,
 * issued by the caller (`iss`) for one callee (`aud`). Every `/internal` route names the callers it accepts.
 */
export interface ServiceAuth {
  /** The service's own name: the issuer of its tokens and the audience it accepts. */
  name: string;
  /** A bearer token for calling `audience`. */
  token(audience: string): Promise<string>;
  /** Refuses calls without a valid token for this service (401) or from a service not in `callers` (403). */
  require(callers: readonly string[]): Middleware;
}

export function createServiceAuth(name: string, secret: string): ServiceAuth {
  const key = new TextEncoder().encode(secret);
  const cache = new Map<string, { token: string; renewAt: number }>();

  async function token(audience: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const cached = cache.get(audience);
    if (cached && cached.renewAt > now) return cached.token;
    const signed = await new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM })
      .setIssuer(name)
      .setSubject(name)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(key);
    cache.set(audience, { token: signed, renewAt: now + TOKEN_LIFETIME_SECONDS - RENEW_BEFORE_SECONDS });
    return signed;
  }

  function require(callers: readonly string[]): Middleware {
    const allowed = new Set(callers);
    return async (ctx, next) => {
      const match = /^Bearer (\S{1,4096})$/.exec(ctx.get('authorization'));
      if (!match) throw unauthorized(INTERNAL_CALL_REFUSED);
      const caller = await jwtVerify(match[1]!, key, { audience: name, algorithms: [ALGORITHM] }).then(
        ({ payload }) => payload.iss,
        () => undefined,
      );
      if (!caller) throw unauthorized(INTERNAL_CALL_REFUSED);
      if (!allowed.has(caller)) throw forbidden(INTERNAL_CALL_REFUSED);
      ctx.state.caller = caller;
      await next();
    };
  }

  return { name, token, require };
}
