import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
// Koa's own URL parsing, which keeps its result on the request: Koa's `ctx.path` then reads it again for free.
import parseurl from 'parseurl';
import {
  createLogger,
  createMetrics,
  closeConnectionsWhile,
  closeRedis,
  connectRedis,
  createRedis,
  errorMiddleware,
  listen,
  observe,
  requestId,
  serverSpans,
  startTracing,
  type Metrics,
  type RunningServer,
} from '@ticketing/platform';
import { compression } from './compression.ts';
import type { GatewayConfig } from './config.ts';
import { opsEndpoints, readiness } from './health.ts';
import { pageRender } from './page-render.ts';
import { apiExchange } from './api.ts';
import { apiDocsRoutes, isApiDocsPath } from './api-docs.ts';
import { NOT_FOUND_MESSAGE } from './proxy.ts';
import { authBudget, clientRateLimits, courtesyCodeBudget } from './rate-limit.ts';
import { configuredUpstreams, isApiPath } from './routes.ts';
import { securityHeaders } from './security.ts';
import { PUBLIC_DIR, staticSite } from './static.ts';
import { createConnectionPools } from './upstream.ts';

export interface GatewayOptions {
  /** Where the JSON logs go (stdout by default). */
  logStream?: Parameters<typeof createLogger>[2];
  /** The folder with the placeholder page and `images/` (the gateway's `public` folder by default). */
  publicDir?: string;
}

/** Like a running service, plus the ops port the gateway serves apart. */
export interface RunningGateway extends RunningServer {
  /** Where `/healthz` and `/metrics` are served: a port of their own that no ingress routes to. */
  opsUrl: string;
  metrics: Metrics;
}

/**
 * How long an idle client connection is kept: longer than what stands in front of the gateway keeps its own
 * (ingress-nginx, 60 s), so a request sent on a kept connection never meets one the gateway is just closing.
 */
const KEEP_ALIVE_MS = 65_000;

/** Listens, keeping idle client connections as long as `KEEP_ALIVE_MS`. */
async function serve(app: Koa | RequestListener, port: number, host: string): Promise<Server> {
  const server = await listen(app, port, host);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  return server;
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

/**
 * Starts the gateway: `/api` routing, rate limits and proxy answered on their own (`apiExchange`); the site behind
 * request ids, logs and metrics, security headers and compression, readiness, the API's description; and, on the ops port, health and
 * metrics.
 */
export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<RunningGateway> {
  const logger = createLogger('gateway', config.LOG_LEVEL, options.logStream);
  const metrics = createMetrics('gateway');
  const tracing = startTracing('gateway', config);
  const upstreams = configuredUpstreams(config);
  const pools = createConnectionPools(upstreams, config.PROXY_TIMEOUT_MS);
  const redis = createRedis(config.REDIS_URL, config.REDIS_PREFIX);
  let stopping = false;

  // ioredis reconnects by itself; report an outage once, not on every attempt.
  let redisDown = false;
  redis.on('error', (error) => {
    if (!redisDown) logger.warn({ err: error }, 'redis unavailable: rate limits fall back to memory');
    redisDown = true;
  });
  redis.on('ready', () => {
    if (redisDown) logger.info('redis available again');
    redisDown = false;
  });
  // Starting without Redis is allowed: the limiter has an in-memory fallback.
  await connectRedis(redis);

  const app = new Koa({ proxy: config.TRUST_PROXY > 0, maxIpsCount: config.TRUST_PROXY });
  app.silent = true;
  app.use(requestId());
  app.use(serverSpans(tracing.tracer));
  app.use(observe(logger, metrics));
  app.use(securityHeaders());
  app.use(compression());
  app.use(errorMiddleware(logger));
  app.use(readiness(() => stopping));
  // `/api` is answered outside these layers (see `apiExchange`).
  const api = apiExchange({
    app,
    upstreams,
    pools,
    timeoutMs: config.PROXY_TIMEOUT_MS,
    logger,
    metrics,
    tracer: tracing.tracer,
    limits: clientRateLimits({
      redis,
      logger,
      limits: [
        {
          name: 'auth',
          budget: authBudget,
          points: config.AUTH_RATE_LIMIT_POINTS,
          windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
        },
        {
          name: 'courtesy',
          budget: courtesyCodeBudget,
          points: config.COURTESY_RATE_LIMIT_POINTS,
          windowSeconds: config.COURTESY_RATE_LIMIT_WINDOW_SECONDS,
        },
      ],
    }),
  });
  app.use(apiDocsRoutes().routes());
  app.use(
    pageRender({
      modulePath: config.RENDER_MODULE,
      staticDir: config.STATIC_DIR,
      publicUrl: config.PUBLIC_URL,
      upstreams,
      timeoutMs: config.RENDER_TIMEOUT_MS,
      logger,
      metrics,
    }),
  );
  app.use(staticSite({ staticDir: config.STATIC_DIR, publicDir: options.publicDir ?? PUBLIC_DIR }));
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { message: NOT_FOUND_MESSAGE };
  });

  const ops = new Koa();
  ops.silent = true;
  ops.use(errorMiddleware(logger));
  ops.use(opsEndpoints({ upstreams, pools, metrics, stopping: () => stopping }));

  const servers: Server[] = [];
  try {
    const site = app.callback();
    servers.push(
      await serve(
        (req, res) => {
          const path = parseurl(req)?.pathname ?? '';
          // The API's own description is a page of the site, with its headers; every other `/api` call is forwarded.
          (isApiPath(path) && !isApiDocsPath(path) ? api : site)(req, res);
        },
        config.PORT,
        config.HOST,
      ),
    );
    servers.push(await serve(ops, config.OPS_PORT, config.HOST));
  } catch (error) {
    for (const server of servers) server.close();
    await pools.destroy();
    redis.disconnect();
    throw error;
  }
  const [server, opsServer] = servers as [Server, Server];
  closeConnectionsWhile(server, () => stopping);
  const [port, opsPort] = servers.map(portOf);
  logger.info({ port, opsPort, services: [...upstreams.keys()], staticDir: config.STATIC_DIR }, 'gateway listening');

  let closing: Promise<void> | undefined;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    opsUrl: `http://127.0.0.1:${opsPort}`,
    logger,
    metrics,
    async drain() {
      // Out of rotation while still serving, each answer closing its connection, until the load balancer notices.
      stopping = true;
      await new Promise((resolve) => setTimeout(resolve, config.DRAIN_DELAY_MS));
    },
    close() {
      closing ??= (async () => {
        // Refuse new work, let in-flight requests finish briefly, then release everything.
        stopping = true;
        const stopped = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, config.DRAIN_TIMEOUT_MS).unref())]);
        server.closeAllConnections();
        opsServer.close();
        opsServer.closeAllConnections();
        await pools.destroy();
        await closeRedis(redis);
        await tracing.close();
      })();
      return closing;
    },
  };
}
