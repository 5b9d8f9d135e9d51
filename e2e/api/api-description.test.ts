import { Validator } from '@seriousme/openapi-schema-validator';
import { apiDocument, pathShape } from '@ticketing/proto/openapi';
import { apiDocsRoutes } from '../../gateway/src/api-docs.ts';
import { findRoute } from '../../gateway/src/routes.ts';
import { publicRoutesServed, type ServedRoute } from './served-routes.ts';

// The published description against what the system serves: every public route the services' routers (and the
// gateway's own) answer is described, and every described operation is served. A route added without its entry in
// proto's list of operations fails here.

let served: ServedRoute[];
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ routes: served, stop } = await publicRoutesServed());
});
afterAll(() => stop?.());

const key = (method: string, path: string) => `${method.toUpperCase()} ${pathShape(path)}`;

test('every public route the system serves is in the OpenAPI document, and every documented operation is served', async () => {
  const gatewayRoutes = apiDocsRoutes().stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => key(method, String(layer.path))),
  );
  const routes = new Set([...served.map(({ method, path }) => key(method, path)), ...gatewayRoutes]);
  const document = apiDocument();
  expect(await new Validator().validate(document as never)).toEqual({ valid: true });
  const documented = new Set(
    Object.entries(document.paths!).flatMap(([path, item]) => Object.keys(item!).map((method) => key(method, path))),
  );

  const undocumented = [...routes].filter((route) => !documented.has(route));
  const stale = [...documented].filter((route) => !routes.has(route));
  expect({ undocumented, stale }).toEqual({ undocumented: [], stale: [] });
  // The services' routes were read: one of each, and the development tools are not part of the public API.
  expect(new Set(served.map((route) => route.service)).size).toBe(7);
  expect(routes).not.toContain('POST /api/make-admin/{}');
});

test('the gateway sends each public route to the service that serves it', () => {
  const misrouted = served
    .map(({ service, method, path }) => ({
      route: `${method} ${path}`,
      service,
      upstream: findRoute(path.replace(/:\w+/g, 'x'))?.upstream,
    }))
    .filter(({ service, upstream }) => service !== upstream);
  expect(misrouted).toEqual([]);
});
