import type { Middleware } from 'koa';
import type { Metrics } from '../metrics.ts';

export type ReadinessCheck = () => Promise<unknown>;

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(check: ReadinessCheck): Promise<unknown> {
  return Promise.race([
    check(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

/** `/healthz` says the process lives; `/readyz` says its dependencies answer; `/metrics` is for Prometheus. */
export function health(checks: Record<string, ReadinessCheck>, metrics: Metrics): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
    } else if (ctx.path === '/readyz') {
      const names = Object.keys(checks);
      const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!)));
      const report = Object.fromEntries(
        names.map((name, i) => [name, results[i]!.status === 'fulfilled' ? 'ok' : 'down']),
      );
      const ready = results.every((result) => result.status === 'fulfilled');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ok' : 'down', checks: report };
    } else if (ctx.path === '/metrics') {
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    } else {
      return next();
    }
  };
}
