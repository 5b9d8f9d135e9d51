/**
 * The parts of the system, listed once. `npm start`, the gateway (routes, upstream settings, health), database roles,
 * the bus's producers, the test system, the image scripts and the checks of docker-compose.yml and k8s/ read them
 * here; docs/adding-a-service.md and docs/adding-a-page.md say what else a new part needs.
 *
 * One name everywhere: folder (or process) = package = image = compose service = k8s name = consumer group.
 */

/**
 * How a public route's path matches a request path, always on whole segments:
 * - `exact`: only the path itself (`/api/verify-ticket`);
 * - `below`: only paths under it (`/api/auth/*`: `/api/auth/login`, not `/api/auth`);
 * - `tree`: the path and everything under it (`/api/events`, `/api/events/42`).
 * A segment written `:name` matches any one segment (`/api/events/:id/certificates`), and a route with more segments
 * wins over a shorter one that also matches.
 */
export type RouteMatch = 'exact' | 'below' | 'tree';

export interface PublicRoute {
  path: string;
  match: RouteMatch;
}

export interface ServicePart {
  name: string;
  /** Its workspace folder (both tickets processes run from services/tickets). */
  dir: string;
  entry: string;
  port: number;
  /** The PostgreSQL schema it owns; the two tickets processes share one. */
  schema: string;
  /** The database role it logs in as: its schema's owner, or a role of its own with less (the door API). */
  role: string;
  /** The name it signs its calls and events as. */
  signsAs: string;
  /** The `/api` paths the gateway sends to it. */
  routes: readonly PublicRoute[];
  /** The services that call its `/internal` routes (each route names which of them it accepts). */
  callers: readonly string[];
  /**
   * Works from the bus alone (no `/api` route leads to it): no request waits on it, so on one machine it runs on the
   * CPU the others leave and a sales rush's answers come before its e-mails and tickets.
   */
  background?: true;
}

/** Every service sends identity its sessions to check. */
const EVERYONE = [
  'catalog',
  'orders',
  'payments',
  'courtesy',
  'tickets-verifier',
  'tickets-worker',
  'mail',
  'certificates',
] as const;

/**
 * A service as most are: its own folder and `src/main.ts`, and its name for its schema, its database role and its
 * signature; `parts` says where it differs.
 */
const service = <const Name extends string, const Parts extends Partial<ServicePart>>(
  name: Name,
  port: number,
  parts: Parts,
) =>
  ({
    name,
    port,
    dir: `services/${name}`,
    entry: `services/${name}/src/main.ts`,
    schema: name,
    role: name,
    signsAs: name,
    routes: [],
    callers: [],
    ...parts,
  }) as Omit<Usual<Name>, keyof Parts> & Parts;

interface Usual<Name extends string> {
  name: Name;
  port: number;
  dir: `services/${Name}`;
  entry: `services/${Name}/src/main.ts`;
  schema: Name;
  role: Name;
  signsAs: Name;
  routes: readonly PublicRoute[];
  callers: readonly string[];
}

/** The door API and the ticket issuer: two processes of services/tickets, sharing its schema and its signature. */
const tickets = { dir: 'services/tickets', schema: 'tickets', signsAs: 'tickets' } as const;

export const SERVICES = [
  service('identity', 3001, {
    routes: [
      { path: '/api/auth', match: 'below' },
      { path: '/api/profile', match: 'tree' },
      { path: '/api/make-admin', match: 'below' },
      // Administrators grant door staff and courtesy manager roles here.
      { path: '/api/admin/users', match: 'below' },
    ],
    callers: EVERYONE,
  }),
  service('catalog', 3002, {
    routes: [
      { path: '/api/events', match: 'tree' },
      { path: '/api/admin/events', match: 'tree' },
      // The door's list of events to pick; everything else below /api/door is the verifier's.
      { path: '/api/door/events', match: 'exact' },
    ],
    callers: ['orders', 'courtesy'],
  }),
  service('orders', 3003, {
    routes: [
      { path: '/api/orders', match: 'tree' },
      { path: '/api/admin/orders', match: 'tree' },
      { path: '/api/admin/sales', match: 'tree' },
      // Refunds the provider refused, waiting for an administrator.
      { path: '/api/admin/refunds', match: 'tree' },
    ],
  }),
  service('payments', 3004, { routes: [{ path: '/api/payments', match: 'below' }], callers: ['orders'] }),
  service('courtesy', 3005, {
    routes: [
      { path: '/api/courtesy-links', match: 'tree' },
      { path: '/api/courtesy', match: 'below' },
      // Coupons live beside promotional links: taken and given back by orders the same way.
      { path: '/api/coupons', match: 'tree' },
    ],
    callers: ['orders', 'mail'],
  }),
  service('tickets-verifier', 3006, {
    ...tickets,
    entry: 'services/tickets/src/verifier.ts',
    role: 'tickets_verifier',
    routes: [
      { path: '/api/verify-ticket', match: 'exact' },
      // An event's ticket list, live counts, look-up and queued readings.
      { path: '/api/door', match: 'below' },
      { path: '/api/reset-ticket', match: 'below' },
      // The public keys door scanners use to check ticket signatures offline.
      { path: '/api/ticket-keys', match: 'exact' },
      { path: '/api/admin/tickets', match: 'tree' },
      // A holder's own tickets, whoever bought them.
      { path: '/api/tickets/mine', match: 'exact' },
    ],
  }),
  service('tickets-worker', 3007, {
    ...tickets,
    entry: 'services/tickets/src/worker.ts',
    role: 'tickets',
    background: true,
  }),
  service('mail', 3008, { background: true }),
  service('certificates', 3009, {
    routes: [
      { path: '/api/certificates', match: 'tree' },
      // An event's certificate settings and its certificates, beside the catalog's event.
      { path: '/api/events/:id/certificate', match: 'exact' },
      { path: '/api/events/:id/certificates', match: 'tree' },
    ],
    callers: ['mail'],
  }),
] as const satisfies readonly ServicePart[];

export type ServiceName = (typeof SERVICES)[number]['name'];

/** The gateway, with its ops port for `/healthz` and `/metrics`. */
export const GATEWAY = {
  name: 'gateway',
  dir: 'gateway',
  entry: 'gateway/src/main.ts',
  port: 8080,
  opsPort: 9090,
} as const;

/** The local stand-in for the payment provider (development and tests only): Asaas's API, webhooks to the gateway. */
export const PAYMENT_SANDBOX = {
  name: 'asaas-sandbox',
  dir: 'tools/asaas-sandbox',
  entry: 'tools/asaas-sandbox/src/main.ts',
  port: 8090,
} as const;

type Snake<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}_${Snake<Tail>}` : S;
/** The setting that holds a service's base URL: `CATALOG_URL`, `TICKETS_VERIFIER_URL`. */
export type UrlSetting<N extends string> = `${Uppercase<Snake<N>>}_URL`;
export const urlSetting = <N extends string>(name: N) =>
  `${name.toUpperCase().replaceAll('-', '_')}_URL` as UrlSetting<N>;

/** Where a service listens on one machine (`npm start`, and a service's default for a collaborator it calls). */
export const localUrl = (name: ServiceName) =>
  `http://127.0.0.1:${SERVICES.find((service) => service.name === name)!.port}`;

/** The micro-frontends the shell composes: each a Module Federation remote built into frontends/dist/<name>. */
export const FRONTENDS = ['shell', 'storefront', 'profile', 'admin', 'door'] as const;
export type FrontendName = (typeof FRONTENDS)[number];
