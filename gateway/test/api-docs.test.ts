import { Validator } from '@seriousme/openapi-schema-validator';
import { request } from 'undici';
import { apiDocument } from '@ticketing/proto/openapi';
import type { RunningGateway } from '../src/gateway.ts';
import type { FakeService } from './support.ts';
import { startGatewayWithBuild } from './support.ts';

let gateway: RunningGateway;
let catalog: FakeService;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ gateway, catalog, close } = await startGatewayWithBuild({ 'index.html': '<!doctype html><title>site</title>' }));
});
afterAll(() => close());

test('GET /api/docs/openapi.json answers the OpenAPI 3.1 document, valid and cacheable, from the gateway itself', async () => {
  const response = await fetch(`${gateway.url}/api/docs/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
  const document = (await response.json()) as ReturnType<typeof apiDocument>;
  expect(document).toEqual(JSON.parse(JSON.stringify(apiDocument())));
  expect(await new Validator().validate(document as never)).toEqual({ valid: true });
  expect(document.openapi).toBe('3.1.0');

  // A client that holds it is told so, without the document again (fetch would ask past any cache: a plain request).
  const etag = response.headers.get('etag')!;
  const again = await request(`${gateway.url}/api/docs/openapi.json`, { headers: { 'if-none-match': etag } });
  expect(again.statusCode).toBe(304);
  expect(await again.body.text()).toBe('');
  // Any other path below is an API path nothing serves.
  const unknown = await fetch(`${gateway.url}/api/docs/nao-existe`);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toEqual({ message: expect.any(String) });
  // Nothing under /api/docs is sent to a service.
  expect(catalog.hits.filter((hit) => hit.url.startsWith('/api/docs'))).toEqual([]);
});

test('GET /api/docs answers the reference page in pt-BR, listing every operation, under the site’s strict policy', async () => {
  const response = await fetch(`${gateway.url}/api/docs`, { headers: { 'accept-encoding': 'br' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('content-encoding')).toBe('br');
  const policy = response.headers.get('content-security-policy')!;
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("style-src 'self'");
  expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);

  const page = await response.text();
  expect(page).toContain('<html lang="pt-BR">');
  expect(page).toContain(
    '<a href="/api/docs/openapi.json" type="application/json">Baixar a descrição OpenAPI (JSON)</a>',
  );
  // No script and no inline style: the page works under the policy above.
  expect(page).not.toMatch(/<script|<style|\sstyle=/i);
  const { paths } = apiDocument();
  for (const [path, item] of Object.entries(paths!)) {
    for (const [method, operation] of Object.entries(item as Record<string, { summary: string }>)) {
      expect(page).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`);
      expect(page).toContain(operation.summary);
    }
  }
  expect(page).toContain('Requer sessão de administrador.');

  // Its one stylesheet comes from the site's own origin.
  const [, stylesheet] = page.match(/<link rel="stylesheet" href="([^"]+)">/)!;
  const css = await fetch(gateway.url + stylesheet!);
  expect(css.status).toBe(200);
  expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
});
