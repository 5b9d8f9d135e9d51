import { createHash } from 'node:crypto';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { API_DOCS_PATH, API_DOCUMENT_PATH } from '@ticketing/proto';
import { apiDocument } from '@ticketing/proto/openapi';
import { apiDocsPage } from './api-docs-page.ts';

/** The page's stylesheet, a file of the gateway's public folder. */
export const API_DOCS_STYLESHEET = '/api-docs.css';

/** The description changes only with a deploy: browsers and caches keep it a while and then revalidate it. */
export const API_DOCS_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

const DOCS_PATHS: ReadonlySet<string> = new Set([API_DOCS_PATH, API_DOCUMENT_PATH]);

/**
 * The gateway answers these itself, with the site's pages, instead of sending them to a service; any other path
 * below stays an API path (a 404 `{ message }`, never the site's index).
 */
export const isApiDocsPath = (path: string) => DOCS_PATHS.has(path);

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Answers `body` with its entity tag, or 304 when the client already holds it. */
function cached(ctx: Context, type: string, body: string, etag: string): void {
  ctx.set('Cache-Control', API_DOCS_CACHE_CONTROL);
  ctx.set('ETag', etag);
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = type;
  ctx.body = body;
}

/**
 * The public API's description, for partners: `GET /api/docs` (the reference page) and `GET /api/docs/openapi.json`
 * (the OpenAPI 3.1 document), both made once, from the contracts in proto, when the gateway starts.
 */
export function apiDocsRoutes(): Router {
  const document = JSON.stringify(apiDocument());
  const page = apiDocsPage(JSON.parse(document), API_DOCUMENT_PATH, API_DOCS_STYLESHEET);
  const documentTag = etagOf(document);
  const pageTag = etagOf(page);
  const router = new Router();
  router.get(API_DOCS_PATH, (ctx) => cached(ctx, 'text/html; charset=utf-8', page, pageTag));
  router.get(API_DOCUMENT_PATH, (ctx) => cached(ctx, 'application/json; charset=utf-8', document, documentTag));
  return router;
}
