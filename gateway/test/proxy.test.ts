import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { captureLogs, uniqueName, waitFor } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { closedPort, deleteRedisKeys, startFakeService, startGateway, type Echo, type FakeService } from './support.ts';

const prefix = `${uniqueName('gateway_proxy')}:`;
const UNAVAILABLE = { message: 'Serviço temporariamente indisponível. Tente novamente em instantes.' };
const logs = captureLogs();
let catalog: FakeService;
let courtesy: FakeService;
let gateway: RunningGateway;
let impatient: RunningGateway;

beforeAll(async () => {
  catalog = await startFakeService('catalog');
  courtesy = await startFakeService('courtesy');
  gateway = await startGateway(
    {
      CATALOG_URL: catalog.url,
      COURTESY_URL: courtesy.url,
      // Configured, but nothing answers there.
      ORDERS_URL: `http://127.0.0.1:${await closedPort()}`,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'info',
    },
    { logStream: logs.stream },
  );
  impatient = await startGateway({ CATALOG_URL: catalog.url, REDIS_PREFIX: prefix, PROXY_TIMEOUT_MS: '300' });
});
afterAll(async () => {
  await gateway?.close();
  await impatient?.close();
  await catalog?.stop();
  await courtesy?.stop();
  await deleteRedisKeys(prefix);
});

test('a service that is not part of this deployment answers 503 with a pt-BR message', async () => {
  for (const path of ['/api/auth/me', '/api/verify-ticket', '/api/payments/webhook']) {
    const response = await fetch(gateway.url + path, { method: path === '/api/auth/me' ? 'GET' : 'POST' });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual(UNAVAILABLE);
  }
});

test('a configured service that does not answer gives 502 JSON, logged with the request id and counted under it', async () => {
  const response = await fetch(`${gateway.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ eventId: 'e1', paymentMethod: 'pix' }),
  });
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual(UNAVAILABLE);
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  const line = await waitFor(() => logs.lines.find((entry) => entry.msg === 'upstream unavailable'));
  expect(line).toMatchObject({ upstream: 'orders', code: 'ECONNREFUSED', requestId, path: '/api/orders' });
  const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
  expect(metrics).toMatch(/http_requests_total\{[^}]*method="POST"[^}]*route="orders"[^}]*status="502"[^}]*\} \d+/);
});

test('a service that takes longer than the proxy timeout gives 502 and its request is abandoned', async () => {
  const response = await fetch(`${impatient.url}/api/events`, { headers: { 'x-echo-hang': '1', 'x-test-id': 'slow' } });
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual(UNAVAILABLE);
  await waitFor(() => catalog.abandoned.includes('slow'));
});

test('a client that goes away aborts the request to the service', async () => {
  const { hostname, port } = new URL(gateway.url);
  const request = http.request({
    hostname,
    port,
    path: '/api/events/stream',
    headers: { 'x-echo-hang': '1', 'x-test-id': 'leaver' },
  });
  request.on('error', () => {});
  request.end();
  await waitFor(() => catalog.hits.some((hit) => hit.headers['x-test-id'] === 'leaver'));
  expect(catalog.abandoned).not.toContain('leaver');
  request.destroy();
  await waitFor(() => catalog.abandoned.includes('leaver'));
});

test('a service dying in the middle of its answer breaks the response instead of hanging it', async () => {
  // Whether or not the status line got out before the break, the client never takes the start for a whole answer.
  const answer = fetch(`${gateway.url}/api/events`, { headers: { 'x-echo-break': '1' } }).then((response) =>
    response.text(),
  );
  await expect(answer).rejects.toThrow();
});

test('an idle connection to a service is let go by the gateway before the service would drop it', async () => {
  // A request sent on a connection the service is closing for idleness would fail with a 502.
  const idle = await startFakeService('catalog');
  const idleGateway = await startGateway({ CATALOG_URL: idle.url, REDIS_PREFIX: prefix });
  try {
    expect((await fetch(`${idleGateway.url}/api/events`)).status).toBe(200);
    await waitFor(() => idle.openConnections === 0);
    expect(idle.idleTimeouts).toBe(0);
  } finally {
    await idleGateway.close();
    await idle.stop();
  }
});

test('a request that meets a kept connection the service lets go is sent again on a new one when that is safe', async () => {
  const dropping = await startFakeService('catalog');
  const droppingGateway = await startGateway({ CATALOG_URL: dropping.url, REDIS_PREFIX: prefix });
  const call = (method: string) =>
    fetch(`${droppingGateway.url}/api/events`, {
      method,
      headers: { 'x-echo-drop-kept': '1' },
      body: method === 'POST' ? '{}' : undefined,
    });
  try {
    expect((await call('GET')).status).toBe(200);
    const seen = dropping.hits.length;
    // The kept connection is closed under the next GET: sent again on a new one, the client gets the answer.
    expect((await call('GET')).status).toBe(200);
    expect(dropping.hits.length - seen).toBe(2);
    // A POST the service may have acted on is never sent twice: the client gets the 502.
    const post = await call('POST');
    expect(post.status).toBe(502);
    expect(await post.json()).toEqual(UNAVAILABLE);
    expect(dropping.hits.filter((hit) => hit.method === 'POST')).toHaveLength(1);
  } finally {
    await droppingGateway.close();
    await dropping.stop();
  }
});

test('a client connection is kept idle longer than the ingress in front keeps its own (60 s)', async () => {
  const response = await fetch(`${gateway.url}/api/events`);
  await response.arrayBuffer();
  // The hint clients read; Node's default (5 s) would close connections the ingress still counts on.
  expect(response.headers.get('keep-alive')).toBe('timeout=65');
});

test('a 5 MB multipart upload streams through unchanged', async () => {
  const boundary = '----ingressos-upload-9f2c';
  const head = Buffer.from(
    [
      `--${boundary}`,
      'Content-Disposition: form-data; name="csvFile"; filename="convidados.csv"',
      'Content-Type: text/csv',
      '',
      'nome,email\r\nAna,ana@example.com',
      `--${boundary}`,
      'Content-Disposition: form-data; name="attachment"; filename="programa.pdf"',
      'Content-Type: application/pdf',
      '',
      '',
    ].join('\r\n'),
  );
  const file = randomBytes(5 * 1024 * 1024);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, file, tail]);
  const firstPart = body.subarray(0, 1024 * 1024);
  const rest = body.subarray(firstPart.length);

  const { hostname, port } = new URL(gateway.url);
  const answer = new Promise<{ status: number; echo: Echo }>((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method: 'POST',
        path: '/api/courtesy/mass-send',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
          authorization: 'Bearer admin-token',
          'x-test-id': 'upload',
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, echo: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    request.on('error', reject);
    request.write(firstPart);
    // The service must see the first megabyte before the rest is even sent: nothing buffers the body.
    waitFor(() => (courtesy.received.get('upload') ?? 0) >= firstPart.length).then(() => request.end(rest), reject);
  });

  const { status, echo } = await answer;
  expect(status).toBe(200);
  expect(echo.bodyLength).toBe(body.length);
  expect(echo.bodySha256).toBe(createHash('sha256').update(body).digest('hex'));
  expect(echo.headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`);
  expect(echo.headers['content-length']).toBe(String(body.length));
  expect(echo.headers.authorization).toBe('Bearer admin-token');
});
