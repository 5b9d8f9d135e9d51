import type { Middleware } from 'koa';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';

/** Probes and scrapes: neither logged nor traced. */
export const QUIET = new Set(['/healthz', '/readyz', '/metrics']);

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

export interface AnsweredRequest {
  method: string;
  path: string;
  /** The matched route, or undefined when none matched. */
  route: string | undefined;
  status: number;
  /** `process.hrtime.bigint()` when the request came in. */
  started: bigint;
}

/**
 * Records one answered request in the access log and the request metrics, labelled by the matched route so ids do
 * not explode cardinality.
 */
export function requestRecorder(logger: Logger, metrics: Metrics) {
  const recorders = recordersFor(metrics);
  return ({ method, path, route, status, started }: AnsweredRequest) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const quiet = QUIET.has(path);
    const { duration, requests } = recorders(method, route ?? (quiet ? path : 'unmatched'), status);
    duration.observe(seconds);
    requests.inc();
    if (!quiet && logger.isLevelEnabled('info'))
      logger.info({ method, path, status, ms: Math.round(seconds * 1000) }, 'request');
  };
}

/** Access log and request metrics of each request (see `requestRecorder`). */
export function observe(logger: Logger, metrics: Metrics): Middleware {
  const record = requestRecorder(logger, metrics);
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      record({ method: ctx.method, path: ctx.path, route: route && String(route), status: ctx.status, started });
    }
  };
}
