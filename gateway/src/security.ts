import type { Middleware } from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { HSTS_MAX_AGE_SECONDS } from '@ticketing/platform';

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

/**
 * Helmet's headers for these settings, worked out once: none of them depends on the request, so each response only
 * gets the same list set again.
 */
function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const response = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader() {} };
  helmet({
    contentSecurityPolicy: {
      // Not helmet's defaults: `upgrade-insecure-requests` would break a plain-HTTP deployment inside a cluster.
      useDefaults: false,
      directives: CONTENT_SECURITY_POLICY,
    },
    strictTransportSecurity: { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  })({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

const PAGE_HEADERS = new Map([['Permissions-Policy', PERMISSIONS_POLICY], ...helmetHeaders()]);

/** Security headers on every page, file and error of the site (API answers get `API_SECURITY_HEADERS`). */
export function securityHeaders(): Middleware {
  return (ctx, next) => {
    ctx.res.setHeaders(PAGE_HEADERS);
    return next();
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
