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

/**
 * Brotli or gzip, as the browser accepts, for bodies of 1 KB or more. Build files compressed ahead of time
 * (`.br`/`.gz` beside them) are served as they are and only get the `Vary` header here.
 */
export function compression(): Middleware {
  return compress({
    filter: isCompressible,
    threshold: 1024,
    // The builds ship brotli and gzip files: the same two encodings everywhere.
    zstd: false,
    deflate: false,
  });
}
