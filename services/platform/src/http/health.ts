import type { Middleware } from 'koa';
import type { Knex } from '../db.ts';
import type { Logger } from '../logger.ts';
import { serveMetrics, type Metrics } from '../metrics.ts';

export type ReadinessCheck = () => Promise<unknown>;
type CheckState = 'ok' | 'down';

const CHECK_TIMEOUT_MS = 2000;
const PROBE_EVERY_MS = 5000;

/** How recent an answered query must be to show the database is there. */
const ANSWERED_WITHIN_MS = 5000;

/**
 * Whether the database answers. A pool busy with a crowd's queries shows it as well as a probe would, and a probe
 * queued behind them would time out and take a serving process out of rotation in the middle of an on-sale rush: a
 * query answered within the last seconds counts, and only a quiet pool is asked `select 1`.
 */
export function databaseCheck(db: Knex): ReadinessCheck {
  let answeredAt = 0;
  db.on('query-response', () => {
    answeredAt = Date.now();
  });
  return async () => {
    if (Date.now() - answeredAt >= ANSWERED_WITHIN_MS) await db.raw('select 1');
  };
}

function withTimeout(check: ReadinessCheck): Promise<unknown> {
  return Promise.race([
    check(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
  ]);
}

async function runChecks(checks: Record<string, ReadinessCheck>): Promise<Record<string, CheckState>> {
  const names = Object.keys(checks);
  const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!)));
  return Object.fromEntries(names.map((name, i) => [name, results[i]!.status === 'fulfilled' ? 'ok' : 'down']));
}

export interface DependencyMonitor {
  /** The state each dependency had at its last probe. */
  states(): Record<string, CheckState>;
  /** Probes every dependency now. */
  probe(): Promise<void>;
  close(): void;
}

/**
 * Probes the dependencies in the background, so a liveness probe reads their last state without waiting on a hung
 * one. Each change is logged once (not at every probe) and kept in the `dependency_up` gauge.
 */
export function monitorDependencies(
  checks: Record<string, ReadinessCheck>,
  { logger, metrics, everyMs = PROBE_EVERY_MS }: { logger: Logger; metrics: Metrics; everyMs?: number },
): DependencyMonitor {
  let current: Record<string, CheckState> = {};
  const probe = async () => {
    const next = await runChecks(checks);
    for (const [dependency, state] of Object.entries(next)) {
      metrics.dependencyUp.set({ dependency }, state === 'ok' ? 1 : 0);
      const before = current[dependency];
      if (state === 'down' && before !== 'down') logger.warn({ dependency }, 'dependency down');
      else if (state === 'ok' && before === 'down') logger.info({ dependency }, 'dependency back');
    }
    current = next;
  };
  const timer = setInterval(() => void probe(), everyMs).unref();
  return { states: () => current, probe, close: () => clearInterval(timer) };
}

export interface HealthOptions {
  /** What the process cannot serve without: any of these down takes it out of rotation (`/readyz` 503). */
  readiness: Record<string, ReadinessCheck>;
  /** Everything it talks to, reported by `/healthz`. */
  dependencies: DependencyMonitor;
}

/**
 * `/healthz` says the process lives (always 200, so a Redis or bus outage restarts no pod) and how its dependencies
 * fare: "degraded" while one is down. `/readyz` says it can serve: 503 only when a readiness check fails.
 * `/metrics` is for Prometheus.
 */
export function health({ readiness, dependencies }: HealthOptions, metrics: Metrics): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET') return next();
    if (ctx.path === '/metrics') return serveMetrics(ctx, metrics);
    if (ctx.path === '/healthz') {
      const checks = dependencies.states();
      const degraded = Object.values(checks).some((state) => state !== 'ok');
      ctx.body = { status: degraded ? 'degraded' : 'ok', checks };
    } else if (ctx.path === '/readyz') {
      const checks = await runChecks(readiness);
      const ready = Object.values(checks).every((state) => state === 'ok');
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ok' : 'down', checks };
    } else {
      return next();
    }
  };
}
