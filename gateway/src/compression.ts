import type { Middleware } from 'koa';
import compress from 'koa-compress';

/**
 * Text worth compressing: pages, scripts, styles, JSON and SVG. Not `text/event-stream`: an event must reach
 * the browser when it is sent, not when the compressor's buffer fills.
 */
export const isCompressible = (type: string) =>
  (type.startsWith('text/') && type !== 'text/event-stream') ||
  /^application\/(json|[\w.-]+\+json|javascript)$/.test(type) ||
  type === 'image/svg+xml';

/** Bodies smaller than this go as they are: compressing them saves too little. */
const THRESHOLD_BYTES = 1024;

const ACCEPT_ENCODING = 'Accept-Encoding';

const done = () => Promise.resolve();

/**
 * Brotli or gzip, as the browser accepts, for bodies of 1 KB or more. Build files compressed ahead of time
 * (`.br`/`.gz` beside them) are served as they are and only get the `Vary` header here. A client that accepts no
 * encoding, or a whole body under the threshold, is settled without koa-compress's negotiation.
 */
export function compression(): Middleware {
  const compressor = compress({
    filter: isCompressible,
    threshold: THRESHOLD_BYTES,
    // The builds ship brotli and gzip files: the same two encodings everywhere.
    zstd: false,
    deflate: false,
  });
  const compressAfter: Middleware = async (ctx, next) => {
    await next();
    const { body } = ctx;
    if ((typeof body === 'string' || Buffer.isBuffer(body)) && ctx.response.length < THRESHOLD_BYTES) return;
    await compressor(ctx, done);
  };
  return (ctx, next) => {
    // Most responses have no `Vary` yet: set it outright instead of parsing and merging.
    if (ctx.res.hasHeader('Vary')) ctx.vary(ACCEPT_ENCODING);
    else ctx.res.setHeader('Vary', ACCEPT_ENCODING);
    return ctx.req.headers['accept-encoding'] ? compressAfter(ctx, next) : next();
  };
}
