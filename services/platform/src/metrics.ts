import type { Context } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const EVENT_LOOP_SAMPLE_MS = 100;

/** One registry per service instance, so several services can share a test process. */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event-loop delay histogram samples with a timer: every 10 ms by default, which alone keeps an idle process
  // waking 100 times a second. Every 100 ms still catches each stall longer than that.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency (database, redis, bus) answered its last probe: 1 up, 0 down',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    collaboratorFailures: new Counter({
      name: 'collaborator_failures_total',
      help:
        'Calls to another service that got no usable answer, by collaborator and reason: unreachable (no answer in ' +
        'time), invalid_answer (a body its contract in proto rejects)',
      labelNames: ['collaborator', 'reason'],
      registers: [registry],
    }),
    busLag: new Histogram({
      name: 'bus_consume_lag_seconds',
      help: 'Time from an event occurring to its handling, by topic',
      labelNames: ['topic'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600],
      registers: [registry],
    }),
    busHandled: new Counter({
      name: 'bus_events_handled_total',
      help: 'Events handled by outcome (handled, duplicate, dead_lettered, failed_attempt)',
      labelNames: ['topic', 'outcome'],
      registers: [registry],
    }),
    busRetries: new Counter({
      name: 'bus_retries_total',
      help:
        'Event retries by topic and outcome: transient (delivered again after a backoff), failed (a failed attempt ' +
        'tried again shortly), recovered (handled after retrying)',
      labelNames: ['topic', 'outcome'],
      registers: [registry],
    }),
    busDeadLetters: new Counter({
      name: 'bus_dead_letters_total',
      help: 'Events a consumer gave up on and kept in its dead_letters table, by topic',
      labelNames: ['topic'],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Answers Prometheus's scrape with every metric of the process. */
export async function serveMetrics(ctx: Context, metrics: Metrics): Promise<void> {
  ctx.type = metrics.registry.contentType;
  ctx.body = await metrics.registry.metrics();
}
