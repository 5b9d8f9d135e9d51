import type { Middleware } from 'koa';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { SERVICES } from '@ticketing/proto';
import { forbidden, unauthorized } from './errors.ts';
import type { ServiceKeys } from './service-keys.ts';

/** Service tokens live a minute: long enough for one call and its retries, short enough to be useless if leaked. */
const TOKEN_LIFETIME_SECONDS = 60;
/** A cached token is renewed once less than this is left, so it never expires in flight. */
const RENEW_BEFORE_SECONDS = 20;
const ALGORITHM = 'EdDSA';

export const INTERNAL_CALL_REFUSED = 'Chamada interna não autorizada';

/**
 * How one service proves who it is to another: a short-lived token issued by the caller (`iss`) for one callee
 * (`aud`), signed with the caller's own private key and checked with the public key of the service `iss` names, so
 * a service can only ever speak as itself. Every `/internal` route names the callers it accepts, among those the list
 * of services gives it (a route naming another fails as the service starts).
 */
export interface ServiceAuth {
  /** The service's own name: the issuer of its tokens and the audience it accepts. */
  name: string;
  /** A bearer token for calling `audience`. */
  token(audience: string): Promise<string>;
  /** Refuses calls without a valid token for this service (401) or from a service not in `callers` (403). */
  require(callers: readonly string[]): Middleware;
}

/**
 * Who may call `name`'s internal routes, by the names they sign as: the callers the list of services gives each of
 * its processes, and itself.
 */
function listedCallers(name: string): Set<string> {
  const signerOf = new Map<string, string>(SERVICES.map((service) => [service.name, service.signsAs]));
  const callers = SERVICES.filter((service) => service.signsAs === name).flatMap((service) => service.callers);
  return new Set([name, ...callers.map((caller) => signerOf.get(caller)!)]);
}

/** Verified tokens beyond this many are dropped once expired (each caller presents a new one every 40 s). */
const VERIFIED_KEPT = 100;

export function createServiceAuth(keys: ServiceKeys): ServiceAuth {
  const { name } = keys;
  const cache = new Map<string, { token: string; renewAt: number }>();
  /** Tokens this service verified, until they expire: a caller presents the same one for most of a minute. */
  const verified = new Map<string, { issuer: string; expiresAt: number }>();

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
      .sign(keys.privateKey);
    cache.set(audience, { token: signed, renewAt: now + TOKEN_LIFETIME_SECONDS - RENEW_BEFORE_SECONDS });
    return signed;
  }

  /** The service that signed `token` for this one, or undefined (malformed, expired, another audience, a key
   * that is not the issuer's, an issuer nobody knows). */
  async function verifiedIssuer(token: string): Promise<string | undefined> {
    const now = Math.floor(Date.now() / 1000);
    const known = verified.get(token);
    if (known && known.expiresAt > now) return known.issuer;
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(token).iss;
    } catch {
      return undefined;
    }
    const key = issuer ? keys.publicKeyOf(issuer) : undefined;
    if (!key) return undefined;
    const payload = await jwtVerify(token, key, { issuer, audience: name, algorithms: [ALGORITHM] }).then(
      (result) => result.payload,
      () => undefined,
    );
    if (!payload) return undefined;
    if (payload.exp !== undefined) {
      if (verified.size >= VERIFIED_KEPT) {
        for (const [kept, { expiresAt }] of verified) if (expiresAt <= now) verified.delete(kept);
      }
      verified.set(token, { issuer: issuer!, expiresAt: payload.exp });
    }
    return issuer;
  }

  function require(callers: readonly string[]): Middleware {
    const listed = listedCallers(name);
    const unlisted = callers.filter((caller) => !listed.has(caller));
    if (unlisted.length > 0) {
      throw new Error(
        `${name}'s internal routes accept ${unlisted.join(', ')}, whom proto/src/system.ts does not list`,
      );
    }
    const allowed = new Set(callers);
    return async (ctx, next) => {
      const match = /^Bearer (\S{1,4096})$/.exec(ctx.get('authorization'));
      if (!match) throw unauthorized(INTERNAL_CALL_REFUSED);
      const caller = await verifiedIssuer(match[1]!);
      if (!caller) throw unauthorized(INTERNAL_CALL_REFUSED);
      if (!allowed.has(caller)) throw forbidden(INTERNAL_CALL_REFUSED);
      ctx.state.caller = caller;
      await next();
    };
  }

  return { name, token, require };
}
