import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

/** Access log and request metrics, labelled by the matched route so ids do not explode cardinality. */
export function observe(logger: Logger, metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (QUIET.has(ctx.path) ? ctx.path : 'unmatched');
      const labels = { method: ctx.method, route: String(route), status: String(ctx.status) };
      metrics.httpDuration.observe(labels, seconds);
      metrics.httpRequests.inc(labels);
      if (!QUIET.has(ctx.path)) {
        logger.info(
          { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) },
          'request',
        );
      }
    }
  };
}
