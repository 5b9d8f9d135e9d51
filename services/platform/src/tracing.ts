import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace as otel,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export { SpanKind, type Span, type Tracer };

/** What turns export on: the OTLP/HTTP endpoint of a collector (Tempo, Jaeger…) and the batch's delay. */
export interface TracingConfig {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_BSP_SCHEDULE_DELAY: number;
}

export interface Tracing {
  tracer: Tracer;
  /** Sends the spans still batched; the service calls it last when it stops. */
  close(): Promise<void>;
}

const INSTRUMENTATION = '@ticketing/platform';
const propagator = new W3CTraceContextPropagator();
let contextManagerSet = false;

/** The API's no-op tracer: contexts pass through, nothing is recorded. */
export const noopTracer: Tracer = new ProxyTracerProvider().getTracer(INSTRUMENTATION);

/**
 * The tracer of one service. Contexts always propagate (cheap): a `traceparent` that came in goes out on calls and
 * events, and logs carry its ids. Spans are recorded and exported only when an OTLP endpoint is configured; without
 * one the tracer is the API's no-op, which mints no ids. Each service has its own provider (several run in one
 * process in tests and `npm start`), so each exports under its own `service.name`.
 */
export function startTracing(service: string, config: TracingConfig): Tracing {
  if (!contextManagerSet) {
    contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  }
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return { tracer: noopTracer, close: async () => {} };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: service }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
      }),
    ],
  });
  return { tracer: provider.getTracer(INSTRUMENTATION), close: () => provider.shutdown() };
}

/** Writes the active context's `traceparent` (and `tracestate`) into `carrier`, when there is one. */
export function injectTrace(carrier: Record<string, string>, from: Context = context.active()): void {
  propagator.inject(from, carrier, defaultTextMapSetter);
}

/** The active context's `traceparent`, to store beside work done later (an event, an e-mail, a charge). */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  injectTrace(carrier);
  return carrier.traceparent;
}

/** The context a `traceparent` names (a header, an envelope's field, a stored row's), or a new root. */
export function extractTrace(traceparent: string | null | undefined, tracestate?: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, { traceparent, tracestate }, defaultTextMapGetter);
}

/** The ids the logs carry: those of the span active where the line is written. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = otel.getSpan(context.active())?.spanContext();
  return span && otel.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
}

export interface SpanOptions {
  kind: SpanKind;
  attributes?: Attributes;
  /** The span's parent: the active context unless given (e.g. extracted from an event or a stored row). */
  parent?: Context;
  links?: Link[];
}

/** Runs `work` inside a new active span, which records a thrown error and ends when `work` settles. */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  { kind, attributes, parent = context.active(), links }: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes, links }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed with the error that ended it. */
export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The span of the active context, to add links or attributes to. */
export const activeSpan = (): Span | undefined => otel.getSpan(context.active());

/**
 * A producer span for a message created now (an outbox row: the relay sends it later), ended at once, and the
 * `traceparent` that names it, for the message to carry to its consumers.
 */
export function producerSpan(tracer: Tracer, name: string, attributes: Attributes): string | undefined {
  const span = tracer.startSpan(name, { kind: SpanKind.PRODUCER, attributes });
  span.end();
  const carrier: Record<string, string> = {};
  injectTrace(carrier, otel.setSpan(context.active(), span));
  return carrier.traceparent;
}

/**
 * Work that belongs to an earlier trace, done in another's context (a provider's webhook settling a charge made during
 * a sale): a span in the trace `traceparent` names (stored with the row when the work began), linked to the current
 * span. Without a stored trace the work stays in the current one.
 */
export function continueTrace<T>(
  tracer: Tracer,
  name: string,
  traceparent: string | null | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!traceparent) return work();
  const current = activeSpan()?.spanContext();
  const links = current && otel.isSpanContextValid(current) ? [{ context: current }] : [];
  return inSpan(tracer, name, { kind: SpanKind.INTERNAL, parent: extractTrace(traceparent), links }, work);
}
