import type { Middleware } from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

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

/**
 * The security headers of an API answer, named in lower case as a service's own headers are. JSON, images and
 * downloads are never a page, so the page's policy, permissions, opener, referrer and legacy headers would change
 * nothing for them and only cost every response: an answer gets a policy that allows nothing (opened as a document,
 * it stays inert) and may not be framed, sniffed or read from another origin, as OWASP advises for REST answers.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'strict-transport-security': PAGE_HEADERS.get('Strict-Transport-Security')!,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

/** Security headers on every page, file and error of the site (API answers get theirs with the answer). */
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
