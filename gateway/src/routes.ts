import { SERVICES, urlSetting, type PublicRoute, type ServiceName } from '@ticketing/proto';
import type { GatewayConfig } from './config.ts';

/** A service the gateway sends calls to or watches (mail and the tickets worker are only reported by /healthz). */
export type UpstreamName = ServiceName;

export interface Upstream {
  name: UpstreamName;
  url: URL;
}

export interface Route extends PublicRoute {
  upstream: UpstreamName;
}

const segments = (path: string) => path.split('/');

/**
 * The routing table, from each service's public routes in the list of services: the route with the most segments
 * that matches wins, then the longest, so `/api/door/events` (the catalog's) is found before `/api/door` (the
 * verifier's) and `/api/events/:id/certificates` (certificates') before `/api/events` (the catalog's).
 */
export const ROUTES: readonly Route[] = SERVICES.flatMap((service) =>
  service.routes.map((route): Route => ({ ...route, upstream: service.name })),
).sort((a, b) => segments(b.path).length - segments(a.path).length || b.path.length - a.path.length);

/** Only this part of the URL space is ever forwarded; services' `/internal`, `/metrics`, `/healthz` stay private. */
export const API_PREFIX = '/api';

export const isApiPath = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

function matches(route: Route, path: string): boolean {
  const wanted = segments(route.path);
  const given = segments(path);
  if (given.length < wanted.length) return false;
  const same = wanted.every((segment, index) =>
    segment.startsWith(':') ? given[index] !== '' : segment === given[index],
  );
  if (!same) return false;
  return given.length === wanted.length ? route.match !== 'below' : route.match !== 'exact';
}

/** The route that serves a request path (without its query), if any. */
export function findRoute(path: string): Route | undefined {
  return ROUTES.find((route) => matches(route, path));
}

/** The services configured in this deployment, by name; a service without a URL is not running here. */
export function configuredUpstreams(config: GatewayConfig): Map<UpstreamName, Upstream> {
  const upstreams = new Map<UpstreamName, Upstream>();
  for (const { name } of SERVICES) {
    const value = config[urlSetting(name)];
    if (typeof value === 'string') upstreams.set(name, { name, url: new URL(value) });
  }
  return upstreams;
}
