import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import type { Dispatcher } from 'undici';
import { AppError, injectTrace, inSpan, SpanKind, type Logger, type Tracer } from '@ticketing/platform';
import { clientIp } from './client-ip.ts';
import type { Upstream } from './routes.ts';
import { ServiceCall, type ConnectionPools, type ServiceAnswer } from './upstream.ts';

export const UNAVAILABLE_MESSAGE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';
export const NOT_FOUND_MESSAGE = 'Rota não encontrada';

/** Methods that change nothing on the service, and carry no body to send again. */
const SAFE_TO_SEND_AGAIN = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The path a service would receive for this URL: the proxy resolves `.`/`..` segments (also `%2e`, `\`). */
function resolvedPath(url: string): string | undefined {
  try {
    return new URL(url, 'http://gateway.invalid').pathname;
  } catch {
    return undefined;
  }
}

function isPlainSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded !== '.' && decoded !== '..' && !/[/\\]/.test(decoded);
}

/** Segments of letters, digits, `-`, `_` and `~` only, none empty. */
const PLAIN_PATH = /^(?:\/[\w~-]+)+\/?$/;

/**
 * True when the path means the same to the gateway and to every service behind it: no dot segments
 * and no encoded slashes that a later decoding could turn into a way out of `/api`.
 */
export function isPlainPath(url: string, path: string): boolean {
  // Most paths hold nothing to resolve or decode (no dot, escape or backslash): plain without parsing the URL.
  if (PLAIN_PATH.test(path) && url.startsWith(path) && (url.length === path.length || url[path.length] === '?')) {
    return true;
  }
  return resolvedPath(url) === path && path.split('/').every(isPlainSegment);
}

/**
 * Headers about one connection, not the message: the gateway's connections to the client and to the service have
 * their own. `expect` too: the gateway's server has already answered `100 Continue` to the client.
 */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/**
 * Headers the gateway writes itself: a client could send the forwarding ones to pose as someone else, the request
 * id is the one `requestId` kept or made, and the trace context names the gateway's span (which continues the
 * client's).
 */
const GATEWAY_HEADERS = new Set([
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'x-request-id',
  'traceparent',
  'tracestate',
]);

/** `Connection` values that name no header: the common case, with nothing more to strip. */
const PLAIN_CONNECTION = /^\s*(?:keep-alive|close)\s*$/i;

/** Headers the client named in `Connection`: they are for the gateway's hop only. */
function connectionOptions(connection: string | undefined): Set<string> | undefined {
  if (connection === undefined || PLAIN_CONNECTION.test(connection)) return undefined;
  return new Set(
    connection
      .toLowerCase()
      .split(',')
      .map((name) => name.trim()),
  );
}

/** The request's headers as the service gets them: the client's end-to-end ones, then the gateway's. */
function forwardedHeaders(ctx: Context, requestId: string): string[] {
  const { headers } = ctx.req;
  const named = connectionOptions(headers.connection);
  const forwarded: string[] = [];
  for (const name in headers) {
    if (HOP_BY_HOP.has(name) || GATEWAY_HEADERS.has(name) || named?.has(name)) continue;
    // Node joins a repeated request header into one value (`set-cookie` is the only list, and no request has it).
    forwarded.push(name, headers[name] as string);
  }
  forwarded.push(
    'x-request-id',
    requestId,
    'x-forwarded-for',
    clientIp(ctx),
    'x-forwarded-proto',
    ctx.protocol,
    'x-forwarded-host',
    ctx.host,
  );
  const trace: Record<string, string> = {};
  injectTrace(trace);
  for (const name in trace) forwarded.push(name, trace[name]!);
  return forwarded;
}

/** Whether the client's request has a body to stream on (none for most GETs). */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** Whether the client asked for server-sent events: a stream that may stay quiet between two events. */
const wantsEventStream = (req: IncomingMessage) => req.headers.accept?.includes('text/event-stream') ?? false;

export interface ForwarderOptions {
  pools: ConnectionPools;
  timeoutMs: number;
  logger: Logger;
  tracer: Tracer;
}

/**
 * Forwards a request to a service, streaming its body untouched. The promise gives the service's answer, or
 * undefined when the client went away first (which aborts the request to the service). A service that does not
 * answer (refused, reset, timed out) gives 502. The timeout bounds the wait for the answer and every silence within
 * it, except in an event stream the client asked for: there it would cut the door's live counts between two events.
 * Each forwarding is a client span, until the service's answer starts.
 */
export function serviceForwarder({ pools, timeoutMs, logger, tracer }: ForwarderOptions) {
  /** The service's answer, or undefined when the client went away first. */
  function forward(ctx: Context, upstream: Upstream, requestId: string, again = false) {
    const attributes = { 'http.request.method': ctx.method, 'peer.service': upstream.name };
    return inSpan(tracer, `${ctx.method} ${upstream.name}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const answer = await send(ctx, upstream, requestId, again);
      if (answer) span.setAttribute('http.response.status_code', answer.status);
      return answer;
    });
  }

  function send(
    ctx: Context,
    upstream: Upstream,
    requestId: string,
    again: boolean,
  ): Promise<ServiceAnswer | undefined> {
    const { req, res } = ctx;
    const body = hasBody(req) ? req : null;
    const bodyTimeout = wantsEventStream(req) ? 0 : timeoutMs;
    const method = ctx.method as Dispatcher.HttpMethod;
    const request = { path: ctx.url, method, headers: forwardedHeaders(ctx, requestId), body, bodyTimeout };
    const call = new ServiceCall(pools.for(upstream), request, (error) => {
      logger.warn({ err: error, upstream: upstream.name, path: ctx.path }, 'upstream failed during the response');
      // The client must see a broken response, not a hang (a compressor in between would wait for the rest forever).
      res.destroy();
    });
    let left = false;
    const leave = () => {
      left = true;
      call.abort();
    };
    // `on`, not `once`: the listener is taken off below either way, and `once` would wrap it anew per request.
    res.on('close', leave);
    return call.answer.then(
      (answer) => {
        res.off('close', leave);
        return answer;
      },
      (error: Error & { code?: string }) => {
        res.off('close', leave);
        if (left) return undefined;
        // A kept connection the service let go as the request went out: a request that changes nothing is sent
        // once more, on another connection (as nginx does); any other gets the 502.
        if (
          !again &&
          !body &&
          !call.answered &&
          error.code === 'UND_ERR_SOCKET' &&
          SAFE_TO_SEND_AGAIN.has(ctx.method)
        ) {
          return forward(ctx, upstream, requestId, true);
        }
        logger.warn({ err: error, code: error.code, upstream: upstream.name, path: ctx.path }, 'upstream unavailable');
        throw new AppError(502, UNAVAILABLE_MESSAGE);
      },
    );
  }

  return forward;
}
