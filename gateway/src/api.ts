import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, type Readable, type Writable } from 'node:stream';
import type Koa from 'koa';
import type { Context } from 'koa';
import { append as appendVary } from 'vary';
import {
  API_SECURITY_HEADERS,
  AppError,
  errorAnswer,
  requestIdOf,
  requestRecorder,
  serverSpan,
  answered,
  trace,
  type ErrorAnswer,
  type Logger,
  type Metrics,
  type Tracer,
} from '@ticketing/platform';
import { clientIp } from './client-ip.ts';
import { compressed, compressingStream, negotiatedEncoding, worthCompressing } from './compression.ts';
import { HOP_BY_HOP, isPlainPath, NOT_FOUND_MESSAGE, serviceForwarder, UNAVAILABLE_MESSAGE } from './proxy.ts';
import { TOO_MANY_ATTEMPTS_MESSAGE, type ClientRateLimits } from './rate-limit.ts';
import { findRoute, type Upstream, type UpstreamName } from './routes.ts';
import type { ConnectionPools, ServiceAnswer } from './upstream.ts';

const ACCEPT_ENCODING = 'Accept-Encoding';

/** A request whose client went away before its answer (nginx's 499). */
const CLIENT_CLOSED_REQUEST = 499;

export interface ApiOptions {
  /** The site's Koa app: its request accessors read the path, client address, host and protocol alike. */
  app: Koa;
  upstreams: Map<UpstreamName, Upstream>;
  pools: ConnectionPools;
  limits: ClientRateLimits;
  timeoutMs: number;
  logger: Logger;
  metrics: Metrics;
  tracer: Tracer;
}

/** Statuses whose answer has no body, so no content headers either (as Koa sends them). */
const EMPTY = new Set([204, 205, 304]);

/** What the gateway adds to every API answer: its request id, the security headers, and `Vary` for compression. */
function gatewayHeaders(requestId: string): OutgoingHttpHeaders {
  return { 'x-request-id': requestId, ...API_SECURITY_HEADERS, vary: ACCEPT_ENCODING };
}

/**
 * Answers the `/api` requests outside the site's middleware, whose layers would cost every call a page makes more
 * than the hop itself: the route (404 for an unknown or ambiguous path, 503 for a service missing from this
 * deployment), the client's budgets (429), then the service's answer with the gateway's headers, compressed as the
 * site's answers are. Failures get `{ message }`; every request is logged and counted by service.
 */
export function apiExchange({ app, upstreams, pools, limits, timeoutMs, logger, metrics, tracer }: ApiOptions) {
  const record = requestRecorder(logger, metrics);
  const forward = serviceForwarder({ pools, timeoutMs, logger, tracer });

  /** Sends the service's answer on, with the gateway's headers; resolves once it is handed to the client. */
  async function respond(ctx: Context, answer: ServiceAnswer, requestId: string): Promise<void> {
    const { res } = ctx;
    const headers = gatewayHeaders(requestId);
    for (const name in answer.headers) {
      const value = answer.headers[name];
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      // The gateway varies on Accept-Encoding itself: add the service's reasons, keep that one.
      headers[name] = name === 'vary' ? appendVary(ACCEPT_ENCODING, value as string) : value;
    }
    const reason = answer.statusMessage || undefined;
    let { body } = answer;
    if (ctx.method === 'HEAD' || EMPTY.has(answer.status)) {
      if (EMPTY.has(answer.status)) {
        delete headers['content-type'];
        delete headers['content-length'];
      }
      res.writeHead(answer.status, reason, headers).end();
      return;
    }
    const size = Buffer.isBuffer(body) ? body.length : undefined;
    const encoding = worthCompressing(answer.status, answer.headers, size)
      ? negotiatedEncoding(ctx.req.headers['accept-encoding'])
      : undefined;
    if (encoding) {
      headers['content-encoding'] = encoding;
      delete headers['content-length'];
      if (Buffer.isBuffer(body)) body = await compressed(encoding, body);
    }
    headers['content-type'] ??= 'application/octet-stream';
    if (Buffer.isBuffer(body)) {
      headers['content-length'] = body.length;
      res.writeHead(answer.status, reason, headers).end(body);
      return;
    }
    res.writeHead(answer.status, reason, headers);
    const streams = encoding ? [body, compressingStream(encoding), res] : [body, res];
    // A client that goes away ends the stream from the service too; a broken stream breaks the response.
    pipeline(streams as [Readable, Writable], () => {});
  }

  function refuse(ctx: Context, requestId: string, { status, body }: ErrorAnswer, retryAfter?: number) {
    const headers = gatewayHeaders(requestId);
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    headers['content-type'] = 'application/json; charset=utf-8';
    const json = JSON.stringify(body);
    headers['content-length'] = Buffer.byteLength(json);
    ctx.res.writeHead(status, headers).end(json);
  }

  /** The answer's status; `labels.route` names the service once the path is matched. */
  async function exchange(ctx: Context, requestId: string, labels: { route?: string }): Promise<number> {
    // A path the service would read differently (`/api/events/../../internal/x`) is refused, never resolved.
    const route = isPlainPath(ctx.url, ctx.path) ? findRoute(ctx.path) : undefined;
    if (!route) throw new AppError(404, NOT_FOUND_MESSAGE);
    // Logs and metrics are labelled by service, not by raw path (ids would explode the label space).
    labels.route = route.upstream;
    const upstream = upstreams.get(route.upstream);
    if (!upstream) throw new AppError(503, UNAVAILABLE_MESSAGE);
    // Most calls count against no budget: they go on at once, without waiting a turn for Redis or the event loop.
    const spending = limits(ctx, clientIp(ctx));
    const retryAfter = spending && (await spending);
    if (retryAfter !== undefined) {
      refuse(ctx, requestId, { status: 429, body: { message: TOO_MANY_ATTEMPTS_MESSAGE } }, retryAfter);
      return 429;
    }
    const answer = await forward(ctx, upstream, requestId);
    // Nobody left to answer: counted as nginx logs it.
    if (!answer) return CLIENT_CLOSED_REQUEST;
    await respond(ctx, answer, requestId);
    return answer.status;
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    const ctx = app.createContext(req, res);
    const requestId = requestIdOf(req.headers);
    const { method, path } = ctx;
    const labels: { route?: string } = {};
    serverSpan(tracer, req, (span) =>
      trace.run({ requestId, causationId: null }, () =>
        exchange(ctx, requestId, labels)
          .catch((error: unknown) => {
            const answer = errorAnswer(error, logger, { method, path });
            if (!res.headersSent) refuse(ctx, requestId, answer);
            else res.destroy();
            return answer.status;
          })
          .then((status) => {
            // Named by the service it reached: the path's ids would make every name unique.
            if (labels.route) span.updateName(`${method} /api → ${labels.route}`);
            answered(span, method, undefined, status);
            record({ method, path, route: labels.route, status, started });
          }),
      ),
    );
  };
}
