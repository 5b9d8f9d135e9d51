import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from '@koa/router';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { captureLogs, testKeyRing } from '@ticketing/testkit';
import { envelopeSchema } from '@ticketing/proto';
import { z } from 'zod';
import { createOutbox } from '../src/bus/outbox.ts';
import { createHttpApp } from '../src/http/app.ts';
import { monitorDependencies, type DependencyMonitor } from '../src/http/health.ts';
import { jsonClient } from '../src/http/json-client.ts';
import { createLogger } from '../src/logger.ts';
import { createMetrics } from '../src/metrics.ts';
import { createServiceAuth } from '../src/service-auth.ts';
import { startTracing, type Tracer } from '../src/tracing.ts';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const traceparent = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

const servers: Server[] = [];
const monitors: DependencyMonitor[] = [];
afterAll(async () => {
  for (const monitor of monitors) monitor.close();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

async function serve(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A collaborator that records the headers of each call it gets. */
async function collaborator() {
  const received: IncomingHttpHeaders[] = [];
  const url = await serve((request, response) => {
    received.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  return { url, received };
}

/** A service's app with a route that calls the collaborator and one that fails, traced by `tracer`. */
async function service(tracer: Tracer, collaboratorUrl: string) {
  const logs = captureLogs();
  const metrics = createMetrics('orders');
  const logger = createLogger('orders', 'info', logs.stream);
  const client = jsonClient('catalog', collaboratorUrl, 2000, {
    serviceAuth: createServiceAuth(testKeyRing.keys('orders')),
    logger,
    metrics,
    tracer,
  });
  const router = new Router();
  router.get('/calls', async (ctx) => {
    ctx.body = await client.call('GET', '/api/events', z.object({ ok: z.boolean() }));
  });
  router.get('/fails', () => {
    throw new Error('boom');
  });
  const dependencies = monitorDependencies({}, { logger, metrics, everyMs: 3_600_000 });
  monitors.push(dependencies);
  const app = createHttpApp({ logger, metrics, tracer, router, health: { readiness: {}, dependencies } });
  return { url: await serve(app.callback()), logs };
}

// Registers the context manager, as a service's boot does.
startTracing('orders', { OTEL_BSP_SCHEDULE_DELAY: 0 });

test('a request continues its caller’s trace: its spans, its call to a collaborator and its error log all name it', async () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('test');
  const catalog = await collaborator();
  const { url, logs } = await service(tracer, catalog.url);

  expect((await fetch(`${url}/calls`, { headers: { traceparent } })).status).toBe(200);
  const [client, server] = exporter.getFinishedSpans();
  expect(server).toMatchObject({ name: 'GET /calls', parentSpanContext: { spanId: CALLER_SPAN } });
  expect(server!.spanContext().traceId).toBe(CALLER_TRACE);
  expect(client).toMatchObject({ name: 'GET catalog', parentSpanContext: { spanId: server!.spanContext().spanId } });
  expect(catalog.received[0]!.traceparent).toBe(`00-${CALLER_TRACE}-${client!.spanContext().spanId}-01`);
  expect(logs.lines.find((line) => line.msg === 'request')).toMatchObject({
    trace_id: CALLER_TRACE,
    span_id: server!.spanContext().spanId,
  });

  expect((await fetch(`${url}/fails`, { headers: { traceparent } })).status).toBe(500);
  const failed = exporter.getFinishedSpans().at(-1)!;
  expect(failed).toMatchObject({ name: 'GET /fails', status: { code: 2 } });
  expect(logs.lines.find((line) => line.msg === 'unhandled error')).toMatchObject({
    trace_id: CALLER_TRACE,
    span_id: failed.spanContext().spanId,
  });
});

test('with tracing off nothing is recorded, yet a caller’s trace context passes on to collaborators and logs', async () => {
  const { tracer } = startTracing('orders', { OTEL_BSP_SCHEDULE_DELAY: 0 });
  const catalog = await collaborator();
  const { url, logs } = await service(tracer, catalog.url);

  await fetch(`${url}/calls`, { headers: { traceparent } });
  expect(catalog.received[0]!.traceparent).toBe(traceparent);
  expect(logs.lines.find((line) => line.msg === 'request')).toMatchObject({ trace_id: CALLER_TRACE });

  // Without one, no ids are made up.
  await fetch(`${url}/calls`);
  expect(catalog.received[1]!.traceparent).toBeUndefined();
  expect(logs.lines.filter((line) => line.msg === 'request')[1]).not.toHaveProperty('trace_id');
});

test('an event names its producer span; envelopes from before, without one, still parse', async () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('test');
  const outbox = createOutbox({ 'order.noted': z.object({ orderId: z.string() }) }, () => {}, tracer);

  const [envelope] = outbox.envelopes([{ type: 'order.noted', key: 'o-1', payload: { orderId: 'o-1' } }]);
  const [producer] = exporter.getFinishedSpans();
  expect(producer).toMatchObject({ name: 'publish order.noted', kind: 3 });
  const { traceId, spanId } = producer!.spanContext();
  expect(envelope!.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  expect(envelopeSchema.parse(envelope).traceparent).toBe(envelope!.traceparent);

  const { traceparent: _none, ...before } = envelope!;
  expect(envelopeSchema.parse(before)).not.toHaveProperty('traceparent');
  // A malformed one is kept as text: the consumer starts a new trace rather than refusing the event.
  expect(envelopeSchema.parse({ ...before, traceparent: 'nonsense' }).traceparent).toBe('nonsense');
});
