import type { Middleware } from 'koa';

/** Browsers keep to HTTPS for this long after seeing the site once over it (two years). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;

/**
 * The security headers of an API answer, as the gateway gives them and as a service answering straight (the door
 * paths the Ingress sends to the verifier) gives them too. JSON, images and downloads are never a page: a policy that
 * allows nothing keeps one opened as a document inert, and it may not be framed, sniffed or read from another origin
 * (OWASP's REST set). The page's own policy, permissions and opener headers would change nothing and cost every
 * answer. Named in lower case, as Node names a service's headers.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** `API_SECURITY_HEADERS` on every answer of a service that clients may reach without the gateway. */
export function apiSecurityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(API_SECURITY_HEADERS);
    await next();
  };
}
