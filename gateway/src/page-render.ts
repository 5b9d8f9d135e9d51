import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join, normalize, sep } from 'node:path';
import type { Middleware } from 'koa';
import { Counter } from 'prom-client';
import type { Logger, Metrics } from '@ticketing/platform';
import type { ApiAnswer, PageRenderer } from '@ticketing/proto/page-render';
import { clientIp } from './client-ip.ts';
import { findRoute, isApiPath, type Upstream, type UpstreamName } from './routes.ts';
import { allowStyleAttributes } from './security.ts';

export interface PageRenderOptions {
  /** The frontends' server-rendering module; without it every page renders in the browser. */
  modulePath: string;
  staticDir: string;
  /** The site's public address, for canonical and Open Graph URLs. */
  publicUrl: string;
  upstreams: Map<UpstreamName, Upstream>;
  /** How long the page's API reads may take before the page is left to the browser. */
  timeoutMs: number;
  logger: Logger;
  metrics: Metrics;
}

/** Loads the module once; a build without one (or a broken one) leaves every page to the browser. */
function loadRenderer(modulePath: string, logger: Logger): PageRenderer | undefined {
  if (!existsSync(modulePath)) {
    logger.info({ modulePath }, 'no server-rendering module: pages render in the browser');
    return undefined;
  }
  try {
    return (createRequire(import.meta.url)(modulePath) as { renderer: PageRenderer }).renderer;
  } catch (error) {
    logger.error({ err: error, modulePath }, 'server-rendering module failed to load: pages render in the browser');
    return undefined;
  }
}

/**
 * Storefront pages (`/`, `/eventos`, `/event/:id`) answered with their content already in the HTML: the module
 * renders them with the same API the browser calls, read straight from the services behind it. Any failure (a
 * service down or slow, a render error) serves the usual application index instead, which renders in the browser.
 */
export function pageRender(options: PageRenderOptions): Middleware {
  const { staticDir, upstreams, timeoutMs, logger } = options;
  let renderer: PageRenderer | undefined | null = null;
  const renders = new Counter({
    name: 'page_renders_total',
    help: 'Pages asked of the server-rendering module, by outcome (rendered, browser: left to the browser, failed)',
    labelNames: ['outcome'],
    registers: [options.metrics.registry],
  });
  const origin = new URL(options.publicUrl).origin;

  // The reader's address goes along, as on a proxied call: a service's per-address limits (unknown certificate codes)
  // count the reader, not the gateway.
  async function readApi(path: string, requestId: string, clientAddress: string): Promise<ApiAnswer> {
    const route = findRoute(new URL(path, origin).pathname);
    const upstream = route && upstreams.get(route.upstream);
    if (!upstream) return { status: 404, body: null };
    const response = await fetch(new URL(path, upstream.url), {
      headers: { accept: 'application/json', 'x-request-id': requestId, 'x-forwarded-for': clientAddress },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body: unknown = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
    return { status: response.status, body };
  }

  // Build files only: `..` cannot leave the build folder.
  const readBuildFile = (path: string) => {
    const file = normalize(join(staticDir, path));
    if (!file.startsWith(join(staticDir, sep))) throw new Error(`${path} is outside the build`);
    return readFile(file, 'utf8');
  };

  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || extname(ctx.path) !== '' || isApiPath(ctx.path)) {
      return next();
    }
    if (renderer === null) renderer = loadRenderer(options.modulePath, logger);
    if (!renderer) return next();

    const requestId = String(ctx.state.requestId ?? '');
    try {
      const page = await renderer.renderPage({
        url: ctx.url,
        origin,
        readApi: (path) => readApi(path, requestId, clientIp(ctx)),
        readBuildFile,
      });
      if (!page) {
        renders.inc({ outcome: 'browser' });
        return next();
      }
      renders.inc({ outcome: 'rendered' });
      ctx.status = page.status;
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.set(
        'Content-Security-Policy',
        allowStyleAttributes(ctx.response.get('Content-Security-Policy'), page.styleHashes),
      );
      ctx.body = page.html;
    } catch (error) {
      renders.inc({ outcome: 'failed' });
      logger.warn({ err: error, url: ctx.url }, 'server rendering failed: the page renders in the browser');
      return next();
    }
  };
}
