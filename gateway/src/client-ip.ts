import type { Context } from 'koa';

/**
 * The caller's address. Koa reads the socket address, or the X-Forwarded-For entries added by the
 * trusted proxies when TRUST_PROXY says there are some (the app is built with `proxy`/`maxIpsCount`).
 */
export function clientIp(ctx: Context): string {
  const ip = ctx.ip || ctx.req.socket.remoteAddress || '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

/** IPv4 addresses count one by one; an IPv6 client usually owns a whole /64, so it counts as one. */
export { addressGroup } from '@ticketing/platform';
