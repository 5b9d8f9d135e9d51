import type { GatewayConfig } from './config.ts';

/**
 * Every service the gateway sends calls to or watches, and the setting that holds its base URL. A service no
 * route names (mail and the tickets worker work only from the bus) is never called, only reported by /healthz.
 */
export const UPSTREAMS = {
  identity: 'IDENTITY_URL',
  catalog: 'CATALOG_URL',
  orders: 'ORDERS_URL',
  payments: 'PAYMENTS_URL',
  courtesy: 'COURTESY_URL',
  'tickets-verifier': 'TICKETS_VERIFIER_URL',
  'tickets-worker': 'TICKETS_WORKER_URL',
  mail: 'MAIL_URL',
} as const satisfies Record<string, keyof GatewayConfig>;

export type UpstreamName = keyof typeof UPSTREAMS;

export interface Upstream {
  name: UpstreamName;
  url: URL;
}

/**
 * How a route's path matches a request path, always on whole segments:
 * - `exact`: only the path itself (`/api/verify-ticket`);
 * - `below`: only paths under it (`/api/auth/*`: `/api/auth/login`, not `/api/auth`);
 * - `tree`: the path and everything under it (`/api/events`, `/api/events/42`).
 */
export type Match = 'exact' | 'below' | 'tree';

export interface Route {
  path: string;
  match: Match;
  upstream: UpstreamName;
}

/** The routing table: the only place that says which service answers which public path. */
export const ROUTES: readonly Route[] = [
  { path: '/api/auth', match: 'below', upstream: 'identity' },
  { path: '/api/profile', match: 'tree', upstream: 'identity' },
  { path: '/api/make-admin', match: 'below', upstream: 'identity' },
  // Administrators grant door staff and courtesy manager roles here.
  { path: '/api/admin/users', match: 'below', upstream: 'identity' },
  { path: '/api/events', match: 'tree', upstream: 'catalog' },
  // The back office: events, orders and refunds, participants (administrators).
  { path: '/api/admin/events', match: 'tree', upstream: 'catalog' },
  { path: '/api/admin/orders', match: 'tree', upstream: 'orders' },
  { path: '/api/admin/sales', match: 'tree', upstream: 'orders' },
  { path: '/api/admin/tickets', match: 'tree', upstream: 'tickets-verifier' },
  { path: '/api/orders', match: 'tree', upstream: 'orders' },
  { path: '/api/payments', match: 'below', upstream: 'payments' },
  { path: '/api/courtesy-links', match: 'tree', upstream: 'courtesy' },
  { path: '/api/courtesy', match: 'below', upstream: 'courtesy' },
  { path: '/api/verify-ticket', match: 'exact', upstream: 'tickets-verifier' },
  // The door: the list of events to pick is the catalog's; everything below it (an event's ticket list, live
  // counts, look-up, queued readings) is the verifier's. The exact path must come first.
  { path: '/api/door/events', match: 'exact', upstream: 'catalog' },
  { path: '/api/door', match: 'below', upstream: 'tickets-verifier' },
  { path: '/api/reset-ticket', match: 'below', upstream: 'tickets-verifier' },
  // The public keys door scanners use to check ticket signatures offline.
  { path: '/api/ticket-keys', match: 'exact', upstream: 'tickets-verifier' },
];

/** Only this part of the URL space is ever forwarded; services' `/internal`, `/metrics`, `/healthz` stay private. */
export const API_PREFIX = '/api';

export const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

function matches(route: Route, path: string): boolean {
  if (path === route.path) return route.match !== 'below';
  return route.match !== 'exact' && path.startsWith(route.path) && path[route.path.length] === '/';
}

/** The route that serves a request path (without its query), if any. */
export function findRoute(path: string): Route | undefined {
  return ROUTES.find((route) => matches(route, path));
}

/** The services configured in this deployment, by name; a service without a URL is not running here. */
export function configuredUpstreams(config: GatewayConfig): Map<UpstreamName, Upstream> {
  const upstreams = new Map<UpstreamName, Upstream>();
  for (const [name, key] of Object.entries(UPSTREAMS) as [UpstreamName, keyof GatewayConfig][]) {
    const value = config[key];
    if (typeof value === 'string') upstreams.set(name, { name, url: new URL(value) });
  }
  return upstreams;
}
