import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import { SpanStatusCode } from '@opentelemetry/api';
import { extractTrace, inSpan, SpanKind, type Span, type Tracer } from '../tracing.ts';
import { QUIET } from './observe.ts';

/** Starts the server span of a request, as a child of the caller's `traceparent` when it sent one. */
export function serverSpan<T>(tracer: Tracer, req: IncomingMessage, work: (span: Span) => Promise<T>): Promise<T> {
  const { traceparent, tracestate } = req.headers as Record<string, string | undefined>;
  const method = req.method ?? 'GET';
  return inSpan(
    tracer,
    method,
    {
      kind: SpanKind.SERVER,
      parent: extractTrace(traceparent, tracestate),
      attributes: { 'http.request.method': method, 'url.path': req.url?.split('?')[0] },
    },
    work,
  );
}

/** What the span learns once the request is answered: the matched route (its name) and the status. */
export function answered(span: Span, method: string, route: string | undefined, status: number): void {
  if (route) span.updateName(`${method} ${route}`).setAttribute('http.route', route);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}

/** A server span per request (probes and scrapes aside), so the request's logs and calls belong to its trace. */
export function serverSpans(tracer: Tracer): Middleware {
  return (ctx: Context, next) => {
    if (QUIET.has(ctx.path)) return next();
    return serverSpan(tracer, ctx.req, async (span) => {
      try {
        await next();
      } finally {
        const route = (ctx as { _matchedRoute?: string })._matchedRoute;
        answered(span, ctx.method, route && String(route), ctx.status);
      }
    });
  };
}
