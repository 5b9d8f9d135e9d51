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

test('files, API answers, errors and the gateway’s own endpoints carry the same headers', async () => {
  for (const path of ['/assets/main.js', '/api/events', '/api/nao-existe', '/assets/nao-existe.js', '/readyz']) {
    const response = await fetch(gateway.url + path);
    expect({ path, headers: securityHeaders(response) }).toEqual({ path, headers: EXPECTED_HEADERS });
  }
});
