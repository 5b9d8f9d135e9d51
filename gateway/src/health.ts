import type { Middleware } from 'koa';
import { serveMetrics, type Metrics } from '@ticketing/platform';
import type { Upstream, UpstreamName } from './routes.ts';
import type { ConnectionPools } from './upstream.ts';

export const UPSTREAM_CHECK_TIMEOUT_MS = 1500;

type ServiceState = 'ok' | 'down';

/** Asks a service's own readiness endpoint; anything but a 2xx within the time limit counts as down. */
function checkReady(upstream: Upstream, pools: ConnectionPools, timeoutMs: number): Promise<ServiceState> {
  const { pathname } = new URL('readyz', upstream.url.href.endsWith('/') ? upstream.url : `${upstream.url.href}/`);
  return pools
    .for(upstream)
    .request({ path: pathname, method: 'GET', signal: AbortSignal.timeout(timeoutMs) })
    .then(async ({ statusCode, body }) => {
      await body.dump();
      return statusCode >= 200 && statusCode < 300 ? 'ok' : 'down';
    })
    .catch((): ServiceState => 'down');
}

/** `/readyz`: this gateway process takes requests (503 while it shuts down). */
export function readiness(stopping: () => boolean): Middleware {
  return (ctx, next) => {
    if (ctx.path !== '/readyz' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.status = stopping() ? 503 : 200;
    ctx.body = { status: stopping() ? 'stopping' : 'ok' };
  };
}

export interface OpsOptions {
  upstreams: Map<UpstreamName, Upstream>;
  pools: ConnectionPools;
  metrics: Metrics;
  /** True once the gateway has started to shut down. */
  stopping: () => boolean;
  checkTimeoutMs?: number;
}

/**
 * The operators' endpoints, served on the ops port only (never through the ingress):
 * - `/healthz`: every configured service's readiness, checked in parallel (503 "degraded" while one is down);
 * - `/metrics`: Prometheus metrics of the gateway;
 * - `/readyz`, as on the public port.
 */
export function opsEndpoints({
  upstreams,
  pools,
  metrics,
  stopping,
  checkTimeoutMs = UPSTREAM_CHECK_TIMEOUT_MS,
}: OpsOptions): Middleware {
  const ready = readiness(stopping);
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/metrics') return serveMetrics(ctx, metrics);
    if (ctx.path === '/healthz') {
      const list = [...upstreams.values()];
      const states = await Promise.all(list.map((upstream) => checkReady(upstream, pools, checkTimeoutMs)));
      const services = Object.fromEntries(list.map((upstream, i) => [upstream.name, states[i]]));
      const healthy = states.every((state) => state === 'ok');
      ctx.set('Cache-Control', 'no-store');
      ctx.status = healthy ? 200 : 503;
      ctx.body = { status: healthy ? 'ok' : 'degraded', services };
    } else {
      return ready(ctx, next);
    }
  };
}
