import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { ProxyServer } from 'http-proxy-3';
import type { Context, Middleware } from 'koa';
import { AppError, type Logger } from '@ticketing/platform';
import { clientIp } from './client-ip.ts';
import { findRoute, isApiPath, type Upstream, type UpstreamName } from './routes.ts';

export const UNAVAILABLE_MESSAGE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';
export const NOT_FOUND_MESSAGE = 'Rota não encontrada';

/** Methods that change nothing on the service, and carry no body to send again. */
const SAFE_TO_SEND_AGAIN = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers a client could send to pose as someone else; the gateway writes its own values instead. */
const CLIENT_FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
];

/**
 * Connections to the services are reused (one pool per protocol) instead of opened per request. Node's agent
 * honours a service's `Keep-Alive: timeout` hint (letting an idle connection go a second before the service
 * would) only when the agent has a timeout of its own: without one, a request sent on a connection the service is
 * closing fails with a 502. `timeoutMs` is the longest a service may take to answer.
 */
export function createConnectionPools(timeoutMs: number) {
  const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: timeoutMs };
  const pools = { http: new http.Agent(options), https: new https.Agent(options) };
  return {
    for: (url: URL) => (url.protocol === 'https:' ? pools.https : pools.http),
    destroy() {
      pools.http.destroy();
      pools.https.destroy();
    },
  };
}

export type ConnectionPools = ReturnType<typeof createConnectionPools>;

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
 * Decides which service answers an `/api` request, before anything else looks at it: unknown paths
 * get 404 and a service missing from this deployment 503, as `{ message }`. The chosen service is
 * left in `ctx.state.upstream` for the proxy.
 */
export function apiRoutes(upstreams: Map<UpstreamName, Upstream>): Middleware {
  return async (ctx, next) => {
    if (!isApiPath(ctx.path)) return next();
    // A path the service would read differently (`/api/events/../../internal/x`) is refused, never resolved.
    const route = isPlainPath(ctx.url, ctx.path) ? findRoute(ctx.path) : undefined;
    if (!route) throw new AppError(404, NOT_FOUND_MESSAGE);
    // Metrics and logs are labelled by service, not by raw path (ids would explode the label space).
    (ctx as { _matchedRoute?: string })._matchedRoute = route.upstream;
    const upstream = upstreams.get(route.upstream);
    if (!upstream) throw new AppError(503, UNAVAILABLE_MESSAGE);
    ctx.state.upstream = upstream;
    return next();
  };
}

export interface ProxyOptions {
  pools: ConnectionPools;
  timeoutMs: number;
  logger: Logger;
}

/** Headers about one connection, not the message: the gateway's own connection to the client has its own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** A response of server-sent events: open for as long as both ends keep it, quiet between events. */
const isEventStream = (answer: IncomingMessage) =>
  (answer.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream');

/**
 * Answers of a known length up to this size (most API answers) are read whole and sent on in one write, instead of
 * through a stream that costs more than the few bytes it carries; larger ones and event streams flow as they come.
 */
const WHOLE_BODY_MAX_BYTES = 64 * 1024;

const isSmall = (answer: IncomingMessage) => {
  const length = Number(answer.headers['content-length'] ?? Number.NaN);
  return length <= WHOLE_BODY_MAX_BYTES && !isEventStream(answer);
};

/** The whole body, or undefined when the service broke off (the client's response is destroyed then). */
function readWhole(answer: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    answer.once('error', () => resolve(undefined));
    answer.once('close', () => resolve(undefined));
  });
}

/** A status or method whose response never has a body. */
const isBodiless = (method: string, status: number) => method === 'HEAD' || status === 204 || status === 304;

/**
 * Forwards the request to the service `apiRoutes` chose, streaming both bodies (no body parser runs
 * before this). The service's answer becomes the response's status, headers and streamed body, so the
 * compression around this middleware applies to it. A service that does not answer (refused, reset, timed out)
 * gives 502 `{ message }`; a client that goes away aborts the request to the service. The timeout bounds the wait
 * for the answer and every silence within it, except in an event stream once it has started: there it would cut
 * the door's live counts between two events.
 */
export function apiProxy({ pools, timeoutMs, logger }: ProxyOptions): Middleware {
  const proxy = new ProxyServer({
    proxyTimeout: timeoutMs,
    xfwd: false,
    changeOrigin: false,
    selfHandleResponse: true,
  });
  /** Who waits for the service's answer to each request in flight. */
  const waiting = new WeakMap<IncomingMessage, (answer: IncomingMessage) => void>();

  proxy.on('proxyRes', (proxyRes, req, res) => {
    // Both timeouts (the proxy's and the pool's) are this socket's; the pool sets its own again when it is reused.
    if (isEventStream(proxyRes)) proxyRes.socket.setTimeout(0);
    // A service that dies in the middle of a response: the client must see a broken response, not a hang.
    proxyRes.once('close', () => {
      if (!proxyRes.complete) res.destroy();
    });
    waiting.get(req)?.(proxyRes);
  });
  // The client left: http-proxy-3 already destroyed the request to the service; nothing to answer.
  proxy.on('econnreset', () => {});
  /** Requests last sent on a kept connection, unless the proxy timeout cut them. */
  const sentOnKeptConnection = new WeakSet<IncomingMessage>();
  proxy.on('proxyReq', (proxyReq, req) => {
    if (proxyReq.reusedSocket) sentOnKeptConnection.add(req);
    proxyReq.once('timeout', () => sentOnKeptConnection.delete(req));
  });
  proxy.on('error', (error) => logger.warn({ err: error }, 'proxy error'));

  /** The service's answer, or undefined when the client went away first. */
  function forward(ctx: Context, upstream: Upstream): Promise<IncomingMessage | undefined> {
    const { req, res } = ctx;
    for (const header of CLIENT_FORWARDING_HEADERS) delete req.headers[header];
    req.headers['x-request-id'] = String(ctx.state.requestId);
    req.headers['x-forwarded-for'] = clientIp(ctx);
    req.headers['x-forwarded-proto'] = ctx.protocol;
    req.headers['x-forwarded-host'] = ctx.host;

    return new Promise((resolve, reject) => {
      waiting.set(req, resolve);
      res.once('close', () => resolve(undefined));
      const send = (again: boolean) =>
        proxy.web(req, res, { target: upstream.url, agent: pools.for(upstream.url) }, (error) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (res.headersSent || res.destroyed) {
            logger.warn({ err: error, code, upstream: upstream.name }, 'upstream failed during the response');
            res.destroy();
            return;
          }
          // A kept connection the service let go as the request went out: a request that changes nothing is sent
          // once more, on another connection (as nginx does); any other gets the 502.
          if (!again && sentOnKeptConnection.has(req) && SAFE_TO_SEND_AGAIN.has(req.method ?? '')) return send(true);
          logger.warn({ err: error, code, upstream: upstream.name, path: ctx.path }, 'upstream unavailable');
          reject(new AppError(502, UNAVAILABLE_MESSAGE));
        });
      send(false);
    });
  }

  return async (ctx, next) => {
    const upstream = ctx.state.upstream as Upstream | undefined;
    if (!upstream) return next();
    const answer = await forward(ctx, upstream);
    if (!answer) {
      ctx.respond = false;
      return;
    }
    ctx.status = answer.statusCode ?? 502;
    if (answer.statusMessage) ctx.message = answer.statusMessage;
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      // The gateway varies on Accept-Encoding itself (compression): add the service's reasons, keep that one.
      if (name === 'vary') ctx.vary(value);
      else ctx.set(name, value);
    }
    if (isBodiless(ctx.method, ctx.status)) answer.resume();
    else if (!isSmall(answer)) ctx.body = answer;
    else {
      const body = await readWhole(answer);
      if (body) ctx.body = body;
      else ctx.respond = false;
    }
  };
}
