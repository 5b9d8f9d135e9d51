import type { Middleware } from 'koa';
import helmet from 'koa-helmet';

/**
 * What a page of the site may load and run. Scripts and styles only come from the site's own files: no inline
 * script, no inline `<style>`, no `eval`, so an injected tag or attribute runs nothing (the login token lives in
 * localStorage). Paying at Asaas is a link to its invoice page, a navigation CSP does not restrict.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  // Event images, `data:` icons and the QR codes drawn in the browser.
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The door scanner uses the camera of the page's own origin; nothing else asks for a device. */
export const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=()';

/** Browsers keep to HTTPS for this long after seeing the site once over it (two years). */
export const HSTS_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;

/** Security headers on every response: pages, files, API answers and errors alike. */
export function securityHeaders(): Middleware {
  const headers = helmet({
    contentSecurityPolicy: {
      // Not helmet's defaults: `upgrade-insecure-requests` would break a plain-HTTP deployment inside a cluster.
      useDefaults: false,
      directives: CONTENT_SECURITY_POLICY,
    },
    strictTransportSecurity: { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  });
  return async (ctx, next) => {
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    await headers(ctx, next);
  };
}

/**
 * A server-rendered page carries the `style` attributes its components render (CSS variables, `pointer-events`):
 * its policy allows exactly those values by hash, and still no other inline style.
 */
export function allowStyleAttributes(policy: string, hashes: string[]): string {
  if (hashes.length === 0) return policy;
  return `${policy};style-src-attr 'unsafe-hashes' ${hashes.map((hash) => `'${hash}'`).join(' ')}`;
}
