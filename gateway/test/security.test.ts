import type { RunningGateway } from '../src/gateway.ts';
import { startGatewayWithBuild } from './support.ts';

let gateway: RunningGateway;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ gateway, close } = await startGatewayWithBuild({
    'index.html': '<!doctype html><script defer src="/assets/main.js"></script>',
    'assets/main.js': 'console.log("shell")',
  }));
});
afterAll(() => close());

const EXPECTED_HEADERS = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: blob:;connect-src 'self';" +
    "font-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const securityHeaders = (response: Response) =>
  Object.fromEntries(Object.keys(EXPECTED_HEADERS).map((name) => [name, response.headers.get(name)]));

test('the page is served with a strict Content-Security-Policy and the other security headers', async () => {
  const response = await fetch(`${gateway.url}/`);
  expect(response.status).toBe(200);
  expect(securityHeaders(response)).toEqual(EXPECTED_HEADERS);
  const policy = response.headers.get('content-security-policy')!;
  expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|upgrade-insecure-requests/);
});

test('files, errors and the gateway’s own endpoints carry the same headers', async () => {
  for (const path of ['/assets/main.js', '/assets/nao-existe.js', '/readyz']) {
    const response = await fetch(gateway.url + path);
    expect({ path, headers: securityHeaders(response) }).toEqual({ path, headers: EXPECTED_HEADERS });
  }
});

/** An API answer is never a page: a policy that allows nothing, and none of the page-only headers. */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': null,
  'cross-origin-opener-policy': null,
  'x-dns-prefetch-control': null,
};

test('API answers and their errors carry the headers that apply to an answer that is not a page', async () => {
  for (const path of ['/api/events', '/api/nao-existe']) {
    const response = await fetch(gateway.url + path);
    const headers = Object.fromEntries(Object.keys(API_HEADERS).map((name) => [name, response.headers.get(name)]));
    expect({ path, headers }).toEqual({ path, headers: API_HEADERS });
  }
});
