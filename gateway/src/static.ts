import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import serve from 'koa-static';
import { AppError } from '@ticketing/platform';
import { NOT_FOUND_MESSAGE } from './proxy.ts';

/** Files shipped with the gateway: the placeholder page and the events' images. */
export const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url));

/** Event images change rarely and are referenced by URL from the catalog: let browsers keep them. */
export const IMAGE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** How long browsers keep a content-hashed build file: its name changes whenever its content does. */
export const HASHED_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The frontend builds put their content-hashed files under `assets/` folders (`/assets/...`,
 * `/storefront/assets/...`): those never change and are kept for a year. Every other build file names the
 * current hashed ones (`index.html`, `runtime-config.json`, each remote's `remoteEntry.js` and
 * `mf-manifest.json`), so browsers revalidate it on every load and a deploy takes effect at once.
 */
export function buildCacheControl(pathInBuilds: string): string {
  return pathInBuilds.split(sep).includes('assets')
    ? `public, max-age=${HASHED_MAX_AGE_SECONDS}, immutable`
    : 'no-cache';
}

/** A source map, compressed or not (`main.js.map`, `main.js.map.br`). */
const SOURCE_MAP = /\.map(\.(gz|br))?$/i;

/**
 * A revalidated file that has not changed since the browser's copy (`If-Modified-Since`) is answered 304 without
 * its body: the remotes' entries are revalidated on every load, and a page fetches them ahead of using them.
 */
function answerUnchanged(ctx: Context) {
  if (ctx.status !== 200 || !ctx.fresh) return;
  if (ctx.body instanceof Readable) ctx.body.destroy();
  ctx.status = 304;
}

export interface StaticOptions {
  staticDir: string;
  publicDir: string;
}

/**
 * The pages: files of the frontend builds (`STATIC_DIR`), `/images/...` from the gateway's public
 * folder with long cache headers, and for every other page path (`/`, `/eventos`, `/event/42`) the
 * application's index, so the browser router takes over. Until the frontends are built that index is
 * the gateway's placeholder page.
 */
export function staticSite({ staticDir, publicDir }: StaticOptions): Middleware {
  const builds = serve(staticDir, {
    index: false,
    setHeaders: (res, path) => res.setHeader('Cache-Control', buildCacheControl(relative(staticDir, path))),
  });
  const images = serve(publicDir, { index: false, maxAge: IMAGE_MAX_AGE_MS });
  const publicFiles = serve(publicDir, { index: false });
  // The shell owns the router; its build may sit at the root of STATIC_DIR or in its own folder.
  const indexCandidates = [
    join(staticDir, 'index.html'),
    join(staticDir, 'shell', 'index.html'),
    join(publicDir, 'index.html'),
  ];

  const notFound = () => {
    throw new AppError(404, NOT_FOUND_MESSAGE);
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    (ctx as { _matchedRoute?: string })._matchedRoute = 'static';
    if (ctx.path.startsWith('/images/')) return images(ctx, notFound);
    // Source maps would publish the frontends' sources: never served, even from a build that has them.
    if (SOURCE_MAP.test(ctx.path)) return notFound();

    await builds(ctx, () => publicFiles(ctx, async () => {}));
    if (ctx.body != null) return answerUnchanged(ctx);

    // A missing file (`/assets/app.js`) is a 404; only page paths fall back to the index.
    if (extname(ctx.path) !== '') return notFound();
    for (const candidate of indexCandidates) {
      if (await isFile(candidate)) {
        ctx.set('Cache-Control', 'no-cache');
        ctx.type = 'html';
        ctx.body = createReadStream(candidate);
        return;
      }
    }
    return notFound();
  };
}
