import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Middleware } from 'koa';
import compress from 'koa-compress';
import Negotiator from 'negotiator';

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

/** Brotli at quality 4: most of its gain over gzip for a fraction of the time of its default 11. */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

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
    br: BROTLI,
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

export type Encoding = 'br' | 'gzip';

/** In koa-compress's order: brotli wins a tie, `identity` means none. */
const PREFERENCE = ['br', 'gzip', 'identity'];

/** The encoding a service's answer is compressed with, negotiated as koa-compress does for the site. */
export function negotiatedEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const headers = { 'accept-encoding': acceptEncoding === '*' ? 'gzip' : acceptEncoding };
  // negotiator 1.x takes the preference; its published types are still 0.6's.
  const negotiator = new Negotiator({ headers }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const encoding = negotiator.encoding(PREFERENCE, { preferred: PREFERENCE });
  return encoding === 'identity' ? undefined : (encoding as Encoding | undefined);
}

const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;

/**
 * Whether a service's answer of `size` bytes (undefined while unknown) is compressed on its way out, by koa-compress's
 * rules: a compressible type of 1 KB or more that is not encoded yet, not a range and not marked `no-transform`.
 */
export function worthCompressing(status: number, headers: IncomingHttpHeaders, size: number | undefined): boolean {
  // Most API answers are small: the size settles it before the type is parsed and looked up.
  if (size !== undefined && size < THRESHOLD_BYTES) return false;
  const type = headers['content-type']?.split(';', 1)[0]!.trim().toLowerCase();
  return (
    type !== undefined &&
    isCompressible(type) &&
    status !== 206 &&
    headers['content-range'] === undefined &&
    headers['content-encoding'] === undefined &&
    !NO_TRANSFORM.test(headers['cache-control'] ?? '')
  );
}

/** A stream that compresses what flows through it. */
export const compressingStream = (encoding: Encoding): zlib.Gzip | zlib.BrotliCompress =>
  encoding === 'br' ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip();

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A whole body compressed, off the event loop. */
export const compressed = (encoding: Encoding, body: Buffer): Promise<Buffer> =>
  encoding === 'br' ? brotli(body, BROTLI) : gzip(body);
