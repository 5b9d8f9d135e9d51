import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { trace } from '../context.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import type { ServiceAuth } from '../service-auth.ts';
import { injectTrace, inSpan, SpanKind, type Span, type Tracer } from '../tracing.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * Another service did not do what was asked. `status` is its HTTP status (null when it could not be reached or did
 * not answer in time); `message` is its pt-BR `{message}` when it sent one. A network failure keeps the socket's
 * `code` (ECONNREFUSED, ETIMEDOUT…) so a consumer that called it is retried later rather than dead-lettered. An
 * answer whose body its contract rejects keeps its status and carries the contract's `issues`.
 */
export class CollaboratorError extends Error {
  readonly service: string;
  readonly status: number | null;
  readonly code: string | undefined;
  readonly issues: readonly z.core.$ZodIssue[] | undefined;

  constructor(
    service: string,
    status: number | null,
    message: string,
    { code, issues }: { code?: string; issues?: readonly z.core.$ZodIssue[] } = {},
  ) {
    super(message);
    this.service = service;
    this.status = status;
    this.code = code;
    this.issues = issues;
  }

  /**
   * The collaborator answered a 4xx about the request itself: asking again the same way gets the same refusal.
   * No answer, a 5xx or an answer breaking its contract is the collaborator's trouble, like being unreachable.
   */
  get refused(): boolean {
    return this.issues === undefined && this.status !== null && this.status >= 400 && this.status < 500;
  }
}

export interface JsonClient {
  /** Answers the body parsed by `answer`, the route's answer schema in proto. */
  call<S extends z.ZodType>(method: string, path: string, answer: S, body?: unknown): Promise<z.output<S>>;
}

/** What a service calls others with: its token for their `/internal` routes, its logs, metrics and tracer. */
export interface Caller {
  serviceAuth: ServiceAuth;
  logger: Logger;
  metrics: Metrics;
  /** Each call gets a client span, whose context the collaborator continues. */
  tracer?: Tracer;
}

/** The socket's code (ECONNREFUSED…); a deadline or undici timeout is ETIMEDOUT, undici's other failures a reset. */
function networkCode(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'TimeoutError' || (typeof code === 'string' && /^UND_ERR_\w*TIMEOUT$/.test(code))) return 'ETIMEDOUT';
  return typeof code === 'string' && !code.startsWith('UND_ERR') ? code : 'ECONNRESET';
}

/**
 * JSON over HTTP to one collaborator, with a deadline, forwarding the request id for the logs and presenting the
 * caller's service token (audience: the collaborator) to its `/internal` routes. A successful answer is parsed with
 * its contract: a body it rejects is logged, counted and thrown as a `CollaboratorError`, so it is handled where the
 * call is made, as an unavailable collaborator, and not as a crash further on.
 */
export function jsonClient(service: string, baseUrl: string, timeoutMs: number, caller: Caller): JsonClient {
  const base = baseUrl.replace(/\/+$/, '');
  const { serviceAuth, logger, metrics, tracer } = caller;
  const failed = (reason: 'unreachable' | 'invalid_answer') =>
    metrics.collaboratorFailures.inc({ collaborator: service, reason });
  return {
    call<S extends z.ZodType>(method: string, path: string, answer: S, body?: unknown): Promise<z.output<S>> {
      if (!tracer) return send(method, path, answer, body);
      // Without the query, which may carry what logs and traces must not keep.
      const attributes = { 'http.request.method': method, 'url.path': path.split('?')[0], 'peer.service': service };
      return inSpan(tracer, `${method} ${service}`, { kind: SpanKind.CLIENT, attributes }, (span) =>
        send(method, path, answer, body, span),
      );
    },
  };

  async function send<S extends z.ZodType>(
    method: string,
    path: string,
    answer: S,
    body: unknown,
    span?: Span,
  ): Promise<z.output<S>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${await serviceAuth.token(service)}`,
    };
    const requestId = trace.current()?.requestId;
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    injectTrace(headers);
    let status: number;
    let text: string;
    try {
      // undici's own request: what fetch adds (WHATWG streams, Request and Response objects) costs a service
      // making several calls an order more CPU than the call itself.
      const response = await request(base + path, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.statusCode;
      span?.setAttribute('http.response.status_code', status);
      text = await response.body.text();
    } catch (error) {
      const code = networkCode(error);
      failed('unreachable');
      throw new CollaboratorError(service, null, `${service} unreachable (${code})`, { code });
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (status < 200 || status > 299) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new CollaboratorError(
        service,
        status,
        typeof message === 'string' ? message : `${service} answered ${status}`,
      );
    }
    const checked = answer.safeParse(parsed);
    if (checked.success) return checked.data;
    const { issues } = checked.error;
    failed('invalid_answer');
    logger.warn({ collaborator: service, method, path, status, issues }, 'collaborator answer breaks its contract');
    const message = `${service} answered ${method} ${path} with a body its contract rejects`;
    throw new CollaboratorError(service, status, message, { issues });
  }
}
