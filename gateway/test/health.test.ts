import { uniqueName } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { SERVICES } from '@ticketing/proto';
import {
  deleteRedisKeys,
  startAllFakeServices,
  startFakeService,
  startGateway,
  upstreamEnv,
  type FakeService,
} from './support.ts';

const prefix = `${uniqueName('gateway_health')}:`;
const ALL = SERVICES.map(({ name }) => name);
let services: Record<string, FakeService>;
let gateway: RunningGateway;
let partial: RunningGateway;

beforeAll(async () => {
  services = await startAllFakeServices();
  gateway = await startGateway({ ...upstreamEnv(services), REDIS_PREFIX: prefix });
  partial = await startGateway({
    CATALOG_URL: services.catalog!.url,
    ORDERS_URL: services.orders!.url,
    REDIS_PREFIX: prefix,
  });
});
afterAll(async () => {
  await gateway?.close();
  await partial?.close();
  await Promise.all(Object.values(services ?? {}).map((service) => service.stop()));
  await deleteRedisKeys(prefix);
});

const allOk = () => Object.fromEntries(ALL.map((name) => [name, 'ok']));

async function health(gateway: RunningGateway) {
  const response = await fetch(`${gateway.opsUrl}/healthz`);
  return { status: response.status, body: await response.json(), cacheControl: response.headers.get('cache-control') };
}

test('healthz is 200 with every configured service ok, asking each service once', async () => {
  const before = Object.values(services).map((service) => service.readyChecks);
  const { status, body, cacheControl } = await health(gateway);
  expect(status).toBe(200);
  expect(body).toEqual({ status: 'ok', services: allOk() });
  expect(cacheControl).toBe('no-store');
  expect(Object.values(services).map((service) => service.readyChecks)).toEqual(before.map((n) => n + 1));
});

test('a service missing from the deployment is not checked', async () => {
  const { status, body } = await health(partial);
  expect(status).toBe(200);
  expect(body).toEqual({ status: 'ok', services: { catalog: 'ok', orders: 'ok' } });
});

test('a stopped service makes healthz 503 "degraded" with that service "down", until it is back', async () => {
  const catalog = services.catalog!;
  await catalog.stop();
  const down = await health(gateway);
  expect(down.status).toBe(503);
  expect(down.body).toEqual({ status: 'degraded', services: { ...allOk(), catalog: 'down' } });

  services.catalog = await startFakeService('catalog', catalog.port);
  const back = await health(gateway);
  expect(back.status).toBe(200);
  expect(back.body).toEqual({ status: 'ok', services: allOk() });
});

test('a service that says it is not ready, or does not answer in time, counts as down', async () => {
  services.payments!.readiness = 'not-ready';
  services.courtesy!.readiness = 'hang';
  try {
    const { status, body } = await health(gateway);
    expect(status).toBe(503);
    expect(body).toEqual({ status: 'degraded', services: { ...allOk(), payments: 'down', courtesy: 'down' } });
  } finally {
    services.payments!.readiness = 'ready';
    services.courtesy!.readiness = 'ready';
  }
});

test('readyz says the gateway itself takes requests, whatever the services, on both ports', async () => {
  services.orders!.readiness = 'not-ready';
  try {
    for (const base of [gateway.url, gateway.opsUrl]) {
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    }
  } finally {
    services.orders!.readiness = 'ready';
  }
});

test('metrics of the gateway are served at /metrics on the ops port, counting the public requests', async () => {
  await fetch(`${gateway.url}/readyz`);
  const response = await fetch(`${gateway.opsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/plain/);
  const text = await response.text();
  expect(text).toContain('http_request_duration_seconds');
  expect(text).toMatch(/http_requests_total\{[^}]*route="\/readyz"[^}]*\}/);
});

test('the public port, which the ingress routes to, serves neither the health report nor the metrics', async () => {
  for (const path of ['/healthz', '/metrics']) {
    const response = await fetch(gateway.url + path);
    const body = await response.text();
    expect({ path, type: response.headers.get('content-type') }).toEqual({ path, type: 'text/html; charset=utf-8' });
    expect(body).not.toContain('http_requests_total');
    expect(body).not.toContain('"services"');
  }
});

test('draining: readyz 503 at once while the site and the API still answer, each closing its connection', async () => {
  const draining = await startGateway({ ...upstreamEnv(services), REDIS_PREFIX: prefix, DRAIN_DELAY_MS: '1000' });
  try {
    const drained = draining.drain!();
    const ready = await fetch(`${draining.url}/readyz`);
    expect(ready.status).toBe(503);
    for (const path of ['/', '/api/events']) {
      const response = await fetch(draining.url + path);
      await response.arrayBuffer();
      expect({ path, status: response.status, connection: response.headers.get('connection') }).toEqual({
        path,
        status: 200,
        connection: 'close',
      });
    }
    await drained;
  } finally {
    await draining.close();
  }
});
