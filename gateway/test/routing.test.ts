import { uniqueName } from '@ticketing/testkit';
import type { RunningGateway } from '../src/gateway.ts';
import { findRoute } from '../src/routes.ts';
import {
  deleteRedisKeys,
  rawRequest,
  startAllFakeServices,
  startGateway,
  upstreamEnv,
  type Echo,
  type FakeService,
} from './support.ts';

const prefix = `${uniqueName('gateway_routing')}:`;
let services: Record<string, FakeService>;
let gateway: RunningGateway;

beforeAll(async () => {
  services = await startAllFakeServices();
  gateway = await startGateway({ ...upstreamEnv(services), REDIS_PREFIX: prefix });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all(Object.values(services ?? {}).map((service) => service.stop()));
  await deleteRedisKeys(prefix);
});

const hitCounts = () => Object.fromEntries(Object.values(services).map((s) => [s.name, s.hits.length]));

const id = '3f1c2a9e-8b7d-4c6e-9a5f-1e2d3c4b5a69';
const json = (value: unknown) => JSON.stringify(value);

/** Every call of the product (spec §7) and the payments webhook, with the service that must answer it. */
const boundary = '----ingressos-form-7d93';
const csvForm = [
  `--${boundary}`,
  'Content-Disposition: form-data; name="csvFile"; filename="convidados.csv"',
  'Content-Type: text/csv',
  '',
  'nome,email\nAna Souza,ana@example.com',
  `--${boundary}--`,
  '',
].join('\r\n');

const calls: { method: string; path: string; upstream: string; body?: string; type?: string }[] = [
  { method: 'GET', path: '/api/auth/me', upstream: 'identity' },
  {
    method: 'POST',
    path: '/api/auth/login',
    upstream: 'identity',
    body: json({ email: 'ana@example.com', password: 'segredo1' }),
  },
  {
    method: 'POST',
    path: '/api/auth/register',
    upstream: 'identity',
    body: json({ name: 'Ana Souza', cpf: '123.456.789-09', email: 'ana@example.com', password: 'segredo1' }),
  },
  { method: 'POST', path: '/api/auth/forgot-password', upstream: 'identity', body: json({ email: 'ana@example.com' }) },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    upstream: 'identity',
    body: json({ newPassword: 'nova12', confirmPassword: 'nova12', token: 't' }),
  },
  {
    method: 'POST',
    path: '/api/auth/verify-code',
    upstream: 'identity',
    body: json({ email: 'ana@example.com', code: '123456' }),
  },
  { method: 'POST', path: '/api/auth/resend-code', upstream: 'identity', body: json({ email: 'ana@example.com' }) },
  { method: 'POST', path: '/api/auth/resend-verification', upstream: 'identity' },
  { method: 'GET', path: '/api/events', upstream: 'catalog' },
  { method: 'GET', path: '/api/events?search=caf%C3%A9&page=2', upstream: 'catalog' },
  { method: 'GET', path: `/api/events/${id}`, upstream: 'catalog' },
  {
    method: 'POST',
    path: '/api/orders',
    upstream: 'orders',
    body: json({ eventId: id, paymentMethod: 'pix', promoCode: 'FARMA10' }),
  },
  { method: 'GET', path: '/api/orders?page=3', upstream: 'orders' },
  { method: 'DELETE', path: `/api/orders/${id}/cancel`, upstream: 'orders' },
  { method: 'POST', path: `/api/orders/${id}/check-status`, upstream: 'orders' },
  { method: 'POST', path: `/api/reset-ticket/${id}`, upstream: 'tickets-verifier' },
  {
    method: 'PUT',
    path: '/api/profile',
    upstream: 'identity',
    body: json({ name: 'Ana S.', phone: '(11) 91234-5678', currentPassword: 'x' }),
  },
  {
    method: 'PUT',
    path: '/api/profile/password',
    upstream: 'identity',
    body: json({ currentPassword: 'segredo1', newPassword: 'nova123' }),
  },
  { method: 'DELETE', path: '/api/profile', upstream: 'identity', body: json({ password: 'segredo1' }) },
  { method: 'GET', path: '/api/courtesy-links/FARMA2025', upstream: 'courtesy' },
  {
    method: 'POST',
    path: '/api/courtesy/redeem',
    upstream: 'courtesy',
    body: json({ code: 'FARMA2025', name: 'Ana Souza' }),
  },
  { method: 'GET', path: '/api/courtesy-links?page=1', upstream: 'courtesy' },
  {
    method: 'POST',
    path: '/api/courtesy-links',
    upstream: 'courtesy',
    body: json({ eventId: id, ticketCount: 10, overridePrice: null }),
  },
  {
    method: 'POST',
    path: '/api/courtesy/mass-send',
    upstream: 'courtesy',
    body: csvForm,
    type: `multipart/form-data; boundary=${boundary}`,
  },
  { method: 'POST', path: '/api/verify-ticket', upstream: 'tickets-verifier', body: json({ qrCodeData: 'qr-secret' }) },
  { method: 'GET', path: '/api/ticket-keys', upstream: 'tickets-verifier' },
  { method: 'GET', path: '/api/door/events', upstream: 'catalog' },
  {
    method: 'GET',
    path: `/api/door/events/${id}/tickets?after=42&deviceId=porta-1a2b3c`,
    upstream: 'tickets-verifier',
  },
  { method: 'GET', path: `/api/door/events/${id}/search?q=ana%20souza`, upstream: 'tickets-verifier' },
  { method: 'GET', path: `/api/door/events/${id}/counts`, upstream: 'tickets-verifier' },
  {
    method: 'POST',
    path: '/api/door/readings',
    upstream: 'tickets-verifier',
    body: json({ deviceId: 'porta-1a2b3c', eventId: id, readings: [] }),
  },
  { method: 'POST', path: '/api/auth/renew', upstream: 'identity' },
  { method: 'GET', path: '/api/admin/events?q=farma&status=publicado', upstream: 'catalog' },
  { method: 'POST', path: `/api/admin/orders/${id}/refund`, upstream: 'orders', body: json({ reason: 'Pedido' }) },
  { method: 'GET', path: `/api/admin/tickets?eventId=${id}`, upstream: 'tickets-verifier' },
  { method: 'GET', path: '/api/tickets/mine', upstream: 'tickets-verifier' },
  { method: 'POST', path: `/api/make-admin/${id}`, upstream: 'identity' },
  {
    method: 'PUT',
    path: '/api/admin/users/roles',
    upstream: 'identity',
    body: json({ email: 'ana@example.com', roles: ['doorStaff'] }),
  },
  {
    method: 'POST',
    path: '/api/payments/webhook',
    upstream: 'payments',
    body: json({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_1' } }),
  },
];

test.each(calls)(
  '$method $path goes to $upstream with method, path, query, body and headers intact',
  async ({ method, path, upstream, body, type = 'application/json' }) => {
    const before = hitCounts();
    const headers: Record<string, string> = {
      authorization: 'Bearer token-123',
      cookie: 'sid=abc; theme=dark',
      'x-custom': 'valor-123',
    };
    if (body) headers['content-type'] = type;
    const response = await fetch(gateway.url + path, { method, headers, body });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-upstream')).toBe(upstream);
    const echo = (await response.json()) as Echo;
    expect(echo).toMatchObject({ upstream, method, url: path, body: body ?? '' });
    expect(echo.headers).toMatchObject({
      authorization: 'Bearer token-123',
      cookie: 'sid=abc; theme=dark',
      'x-custom': 'valor-123',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      host: new URL(gateway.url).host,
    });
    if (body) expect(echo.headers['content-type']).toBe(type);
    expect(hitCounts()).toEqual({ ...before, [upstream]: before[upstream]! + 1 });
  },
);

test('status, an empty 204 and two Set-Cookie headers come back as the service sent them', async () => {
  const response = await fetch(`${gateway.url}/api/orders/${id}/cancel`, {
    method: 'DELETE',
    headers: { 'x-echo-status': '204', 'x-echo-cookies': 'yes' },
  });
  expect(response.status).toBe(204);
  expect(await response.text()).toBe('');
  expect(response.headers.getSetCookie()).toEqual(['sid=abc; Path=/; HttpOnly', 'theme=dark; Path=/; SameSite=Lax']);

  const denied = await fetch(`${gateway.url}/api/auth/me`, { headers: { 'x-echo-status': '401' } });
  expect(denied.status).toBe(401);
  expect(await denied.json()).toMatchObject({ upstream: 'identity' });
});

test('prefixes match whole path segments only', () => {
  expect(findRoute('/api/events')?.upstream).toBe('catalog');
  expect(findRoute('/api/events/')?.upstream).toBe('catalog');
  expect(findRoute('/api/events/42/tickets')?.upstream).toBe('catalog');
  expect(findRoute('/api/eventsX')).toBeUndefined();
  expect(findRoute('/api/courtesy-links/ABC')?.upstream).toBe('courtesy');
  expect(findRoute('/api/courtesy/redeem')?.upstream).toBe('courtesy');
  expect(findRoute('/api/courtesy')).toBeUndefined();
  expect(findRoute('/api/auth')).toBeUndefined();
  expect(findRoute('/api/verify-ticket')?.upstream).toBe('tickets-verifier');
  expect(findRoute('/api/verify-ticket/extra')).toBeUndefined();
  expect(findRoute('/api/ticket-keys')?.upstream).toBe('tickets-verifier');
  expect(findRoute('/api/reset-ticket')).toBeUndefined();
  // The door's event list is the catalog's; the rest of the door is the verifier's.
  expect(findRoute('/api/door/events')?.upstream).toBe('catalog');
  expect(findRoute(`/api/door/events/${id}/live`)?.upstream).toBe('tickets-verifier');
  expect(findRoute('/api/door/readings')?.upstream).toBe('tickets-verifier');
  expect(findRoute('/api/door')).toBeUndefined();
  expect(findRoute('/api/doors/events')).toBeUndefined();
});

test("an event's certificates are certificates', found by their segment before the catalog's event", () => {
  expect(findRoute(`/api/events/${id}/certificate`)?.upstream).toBe('certificates');
  expect(findRoute(`/api/events/${id}/certificates`)?.upstream).toBe('certificates');
  expect(findRoute(`/api/events/${id}/certificates/7KQ2-M9XD-4T1H-0BZC`)?.upstream).toBe('certificates');
  expect(findRoute(`/api/events/${id}/certificate/extra`)?.upstream).toBe('catalog');
  expect(findRoute('/api/events//certificates')?.upstream).toBe('catalog');
  expect(findRoute(`/api/events/${id}`)?.upstream).toBe('catalog');
  expect(findRoute('/api/certificates/7KQ2-M9XD-4T1H-0BZC/pdf')?.upstream).toBe('certificates');
});

test.each([
  '/api/eventsX',
  '/api/events-admin/1',
  '/api/ordersfoo',
  '/api/profiles',
  '/api/auth',
  '/api/courtesy',
  '/api/verify-tickets',
  '/api/verify-ticket/extra',
  '/api',
  '/api/',
  '/api/nada/aqui',
  '/api/internal/events',
])('%s is not a route: 404 JSON and no service is called', async (path) => {
  const before = hitCounts();
  const response = await fetch(gateway.url + path, { method: 'POST', body: '{}' });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  expect(await response.json()).toEqual({ message: 'Rota não encontrada' });
  expect(hitCounts()).toEqual(before);
});

test.each([
  '/api/events/../../internal/holds',
  '/api/events/%2e%2e/%2E%2E/internal/holds',
  '/api/events/..%2f..%2finternal/holds',
  '/api/events/..\\..\\internal/holds',
  '/api/events/./1',
])('a path with dot segments (%s) is refused, never resolved and forwarded', async (path) => {
  const before = hitCounts();
  const response = await rawRequest(gateway.url, path);
  expect(response.status).toBe(404);
  expect(JSON.parse(response.body)).toEqual({ message: 'Rota não encontrada' });
  expect(hitCounts()).toEqual(before);
});

test("the services' /internal, /metrics and /healthz are never reachable through the gateway", async () => {
  const before = hitCounts();
  const internal = await fetch(`${gateway.url}/internal/holds`, { method: 'POST', body: '{}' });
  expect(internal.status).toBe(404);
  expect(await internal.json()).toEqual({ message: 'Rota não encontrada' });

  const internalPage = await fetch(`${gateway.url}/internal/holds`);
  expect(internalPage.headers.get('x-upstream')).toBeNull();
  expect(await internalPage.text()).not.toContain('"upstream"');

  for (const path of ['/metrics', '/healthz']) {
    const page = await fetch(gateway.url + path);
    expect(page.headers.get('x-upstream')).toBeNull();
    expect(await page.text()).not.toContain('"upstream"');
  }
  expect(hitCounts()).toEqual(before);
});

test('a request id is made when none comes, forwarded to the service and returned', async () => {
  const response = await fetch(`${gateway.url}/api/events`);
  const generated = response.headers.get('x-request-id');
  expect(generated).toMatch(/^[0-9a-f-]{36}$/);
  const echo = (await response.json()) as Echo;
  expect(echo.headers['x-request-id']).toBe(generated);

  const second = await fetch(`${gateway.url}/api/events`);
  expect(second.headers.get('x-request-id')).not.toBe(generated);
});

test('an incoming request id is kept end to end', async () => {
  const response = await fetch(`${gateway.url}/api/orders?page=1`, { headers: { 'x-request-id': 'req-from-edge-42' } });
  expect(response.headers.get('x-request-id')).toBe('req-from-edge-42');
  expect(((await response.json()) as Echo).headers['x-request-id']).toBe('req-from-edge-42');
});

test('forwarding headers sent by the client are replaced by what the gateway saw', async () => {
  const response = await fetch(`${gateway.url}/api/events`, {
    headers: {
      'x-forwarded-for': '6.6.6.6',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-real-ip': '6.6.6.6',
      forwarded: 'for=6.6.6.6',
    },
  });
  const { headers } = (await response.json()) as Echo;
  expect(headers['x-forwarded-for']).toBe('127.0.0.1');
  expect(headers['x-forwarded-proto']).toBe('http');
  expect(headers['x-forwarded-host']).toBe(new URL(gateway.url).host);
  expect(headers['x-real-ip']).toBeUndefined();
  expect(headers.forwarded).toBeUndefined();
});

test('metrics label proxied calls by service, not by raw path', async () => {
  await (await fetch(`${gateway.url}/api/events/${id}`)).text();
  const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
  expect(metrics).toMatch(/http_requests_total\{[^}]*route="catalog"[^}]*status="200"[^}]*\} \d+/);
  expect(metrics).not.toContain(id);
});
