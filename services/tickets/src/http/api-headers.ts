import type { Middleware } from 'koa';

/** Browsers keep to HTTPS for two years after seeing the site once over it, as the gateway tells them. */
const HSTS = `max-age=${2 * 365 * 24 * 60 * 60}; includeSubDomains`;

/**
 * The security headers the gateway puts on every answer, for the door paths the Ingress sends straight here: an API
 * answer is never a page to run, frame or sniff.
 */
export function apiSecurityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set({
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'Strict-Transport-Security': HSTS,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    await next();
  };
}
