import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { loadConfig } from '@ticketing/platform';
import { SERVICES, urlSetting } from '@ticketing/proto';
import { TEST_REDIS_URL, deleteRedisKeys, uniqueName } from '@ticketing/testkit';
export { deleteRedisKeys } from '@ticketing/testkit';
import { gatewayConfigSchema } from '../src/config.ts';
import { createGateway, type GatewayOptions, type RunningGateway } from '../src/gateway.ts';

/** What a stand-in service saw of one request. */
export interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyLength: number;
  bodySha256: string;
}

/** The JSON a stand-in service answers with: who it is and what it received. */
export interface Echo {
  upstream: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  bodyLength: number;
  bodySha256: string;
}

export interface FakeService {
  name: string;
  url: string;
  port: number;
  hits: Hit[];
  /** Bytes received so far, by the request's `x-test-id`. */
  received: Map<string, number>;
  /** `x-test-id`s of requests whose caller went away before the answer (or before an event stream ended). */
  abandoned: string[];
  readyChecks: number;
  /** What `/readyz` does: answer 200, answer 503, or never answer. */
  readiness: 'ready' | 'not-ready' | 'hang';
  openConnections: number;
  /** Idle connections the service dropped itself (its 2 s keep-alive ran out). */
  idleTimeouts: number;
  /** Event streams (`x-echo-events`) still open, for the test to end. */
  eventStreams: ServerResponse[];
  stop(): Promise<void>;
}

/**
 * A small real Koa server standing in for one service. It echoes its name, the method, URL, headers
 * and body it received. Request headers steer it: `x-echo-status` (answer with that status),
 * `x-echo-cookies` (set two cookies), `x-echo-hang` (never answer), `x-echo-break` (die mid-answer),
 * `x-echo-events` (start a stream of server-sent events and keep it open), `x-echo-drop-kept` (close a kept
 * connection unanswered when a request arrives on it).
 */
export async function startFakeService(name: string, port = 0): Promise<FakeService> {
  const app = new Koa();
  const service: FakeService = {
    name,
    url: '',
    port: 0,
    hits: [],
    received: new Map(),
    abandoned: [],
    readyChecks: 0,
    readiness: 'ready',
    openConnections: 0,
    idleTimeouts: 0,
    eventStreams: [],
    stop: async () => {},
  };

  const servedBefore = new WeakSet<object>();
  app.use(async (ctx) => {
    if (ctx.path === '/readyz') {
      service.readyChecks += 1;
      if (service.readiness === 'hang') {
        ctx.respond = false;
        return;
      }
      ctx.status = service.readiness === 'ready' ? 200 : 503;
      ctx.body = { status: service.readiness === 'ready' ? 'ok' : 'down' };
      return;
    }
    const testId = ctx.get('x-test-id');
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      hash.update(chunk);
      length += chunk.length;
      if (length <= 65_536) chunks.push(chunk);
      if (testId) service.received.set(testId, length);
    }
    const hit: Hit = {
      method: ctx.method,
      url: ctx.url,
      headers: { ...ctx.headers },
      bodyLength: length,
      bodySha256: hash.digest('hex'),
    };
    service.hits.push(hit);

    if (ctx.get('x-echo-drop-kept') && servedBefore.has(ctx.req.socket)) {
      // A kept connection the service lets go just as a request arrives on it: closed without an answer.
      ctx.req.socket.destroy();
      ctx.respond = false;
      return;
    }
    servedBefore.add(ctx.req.socket);
    if (ctx.get('x-echo-hang')) {
      ctx.res.once('close', () => {
        if (!ctx.res.writableFinished) service.abandoned.push(testId);
      });
      ctx.respond = false;
      return;
    }
    if (ctx.get('x-echo-break')) {
      // Starts a long answer, then the process "dies" in the middle of it.
      ctx.res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000000' });
      ctx.res.write('começo da resposta', () => ctx.req.socket.destroy());
      ctx.respond = false;
      return;
    }
    if (ctx.get('x-echo-events')) {
      ctx.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      ctx.res.write(`data: ${'primeiro evento '.repeat(100)}\n\n`);
      ctx.res.once('close', () => {
        if (!ctx.res.writableFinished) service.abandoned.push(testId);
      });
      service.eventStreams.push(ctx.res);
      ctx.respond = false;
      return;
    }
    if (ctx.get('x-echo-cookies')) {
      ctx.append('Set-Cookie', ['sid=abc; Path=/; HttpOnly', 'theme=dark; Path=/; SameSite=Lax']);
    }
    ctx.set('x-upstream', name);
    ctx.status = Number(ctx.get('x-echo-status')) || 200;
    if (ctx.status !== 204 && ctx.status !== 304) {
      const echo: Echo = {
        upstream: name,
        method: hit.method,
        url: hit.url,
        headers: ctx.headers as Record<string, string>,
        body: length <= 65_536 ? Buffer.concat(chunks).toString('utf8') : undefined,
        bodyLength: hit.bodyLength,
        bodySha256: hit.bodySha256,
      };
      ctx.body = echo;
    }
  });

  const server: Server = app.listen(port, '127.0.0.1');
  server.keepAliveTimeout = 2_000;
  server.on('connection', (socket) => {
    service.openConnections += 1;
    socket.once('timeout', () => (service.idleTimeouts += 1));
    socket.once('close', () => (service.openConnections -= 1));
  });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  service.port = (server.address() as AddressInfo).port;
  service.url = `http://127.0.0.1:${service.port}`;
  service.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return service;
}

/** A port nothing listens on: a configured service that is down. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts the gateway on free ports with the machine's Redis; `env` adds or overrides settings. */
export function startGateway(env: Record<string, string>, options: GatewayOptions = {}): Promise<RunningGateway> {
  const config = loadConfig(gatewayConfigSchema, {
    HOST: '127.0.0.1',
    PORT: '0',
    OPS_PORT: '0',
    // Pages render in the browser, except in the tests of server rendering, which name the module.
    RENDER_MODULE: join(tmpdir(), 'no-render-module.cjs'),
    REDIS_URL: TEST_REDIS_URL,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
  return createGateway(config, options);
}

/**
 * A gateway serving `files` (path → content) as a frontends build, with a stand-in catalog behind it; `close`
 * removes everything it made.
 */
export async function startGatewayWithBuild(files: Record<string, string | Buffer>) {
  const prefix = `${uniqueName('gateway_build')}:`;
  const build = await mkdtemp(join(tmpdir(), 'gateway-build-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(build, path)), { recursive: true });
    await writeFile(join(build, path), content);
  }
  const catalog = await startFakeService('catalog');
  const gateway = await startGateway({ STATIC_DIR: build, CATALOG_URL: catalog.url, REDIS_PREFIX: prefix });
  return {
    gateway,
    catalog,
    async close() {
      await gateway.close();
      await catalog.stop();
      await rm(build, { recursive: true, force: true });
      await deleteRedisKeys(prefix);
    },
  };
}

/** The gateway settings that point every service at its stand-in. */
export function upstreamEnv(services: Record<string, FakeService>): Record<string, string> {
  return Object.fromEntries(Object.entries(services).map(([name, service]) => [urlSetting(name), service.url]));
}

export async function startAllFakeServices(): Promise<Record<string, FakeService>> {
  const services = await Promise.all(SERVICES.map(({ name }) => startFakeService(name)));
  return Object.fromEntries(services.map((service) => [service.name, service]));
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as it came over the wire (still compressed, if it was). */
  bytes: Buffer;
}

/** A request sent exactly as written (fetch would clean up `..` in the path before sending). */
export function rawRequest(
  base: string,
  path: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: bytes.toString(), bytes });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

export async function redisKeys(prefix: string): Promise<string[]> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return await redis.keys(`${prefix}*`);
  } finally {
    redis.disconnect();
  }
}
