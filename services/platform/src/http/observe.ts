import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

interface Recorders {
  duration: ReturnType<Metrics['httpDuration']['labels']>;
  requests: ReturnType<Metrics['httpRequests']['labels']>;
}

/**
 * The metrics' children for each method, route and status, made on first use: a request then records without
 * building and hashing a label set. Methods are the HTTP parser's, routes the matched ones: the set stays small.
 */
function recordersFor(metrics: Metrics) {
  const byMethod = new Map<string, Map<string, Map<number, Recorders>>>();
  return (method: string, route: string, status: number): Recorders => {
    let byRoute = byMethod.get(method);
    if (!byRoute) byMethod.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let recorders = byStatus.get(status);
    if (!recorders) {
      const labels = { method, route, status: String(status) };
      recorders = { duration: metrics.httpDuration.labels(labels), requests: metrics.httpRequests.labels(labels) };
      byStatus.set(status, recorders);
    }
    return recorders;
  };
}

/** Access log and request metrics, labelled by the matched route so ids do not explode cardinality. */
export function observe(logger: Logger, metrics: Metrics): Middleware {
  const recorders = recordersFor(metrics);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { method, path, status } = ctx;
      const quiet = QUIET.has(path);
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (quiet ? path : 'unmatched');
      const { duration, requests } = recorders(method, String(route), status);
      duration.observe(seconds);
      requests.inc();
      if (!quiet && logger.isLevelEnabled('info'))
        logger.info({ method, path, status, ms: Math.round(seconds * 1000) }, 'request');
    }
  };
}
