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
const EVERYONE = ['catalog', 'orders', 'payments', 'courtesy', 'tickets-verifier', 'tickets-worker', 'mail'] as const;

export const SERVICES = [
  {
    name: 'identity',
    dir: 'services/identity',
    entry: 'services/identity/src/main.ts',
    port: 3001,
    schema: 'identity',
    role: 'identity',
    signsAs: 'identity',
    routes: [
      { path: '/api/auth', match: 'below' },
      { path: '/api/profile', match: 'tree' },
      { path: '/api/make-admin', match: 'below' },
      // Administrators grant door staff and courtesy manager roles here.
      { path: '/api/admin/users', match: 'below' },
    ],
    callers: EVERYONE,
  },
  {
    name: 'catalog',
    dir: 'services/catalog',
    entry: 'services/catalog/src/main.ts',
    port: 3002,
    schema: 'catalog',
    role: 'catalog',
    signsAs: 'catalog',
    routes: [
      { path: '/api/events', match: 'tree' },
      { path: '/api/admin/events', match: 'tree' },
      // The door's list of events to pick; everything else below /api/door is the verifier's.
      { path: '/api/door/events', match: 'exact' },
    ],
    callers: ['orders', 'courtesy'],
  },
  {
    name: 'orders',
    dir: 'services/orders',
    entry: 'services/orders/src/main.ts',
    port: 3003,
    schema: 'orders',
    role: 'orders',
    signsAs: 'orders',
    routes: [
      { path: '/api/orders', match: 'tree' },
      { path: '/api/admin/orders', match: 'tree' },
      { path: '/api/admin/sales', match: 'tree' },
    ],
    callers: [],
  },
  {
    name: 'payments',
    dir: 'services/payments',
    entry: 'services/payments/src/main.ts',
    port: 3004,
    schema: 'payments',
    role: 'payments',
    signsAs: 'payments',
    routes: [{ path: '/api/payments', match: 'below' }],
    callers: ['orders'],
  },
  {
    name: 'courtesy',
    dir: 'services/courtesy',
    entry: 'services/courtesy/src/main.ts',
    port: 3005,
    schema: 'courtesy',
    role: 'courtesy',
    signsAs: 'courtesy',
    routes: [
      { path: '/api/courtesy-links', match: 'tree' },
      { path: '/api/courtesy', match: 'below' },
    ],
    callers: ['orders', 'mail'],
  },
  {
    name: 'tickets-verifier',
    dir: 'services/tickets',
    entry: 'services/tickets/src/verifier.ts',
    port: 3006,
    schema: 'tickets',
    role: 'tickets_verifier',
    signsAs: 'tickets',
    routes: [
      { path: '/api/verify-ticket', match: 'exact' },
      // An event's ticket list, live counts, look-up and queued readings.
      { path: '/api/door', match: 'below' },
      { path: '/api/reset-ticket', match: 'below' },
      // The public keys door scanners use to check ticket signatures offline.
      { path: '/api/ticket-keys', match: 'exact' },
      { path: '/api/admin/tickets', match: 'tree' },
    ],
    callers: [],
  },
  {
    name: 'tickets-worker',
    dir: 'services/tickets',
    entry: 'services/tickets/src/worker.ts',
    port: 3007,
    schema: 'tickets',
    role: 'tickets',
    signsAs: 'tickets',
    routes: [],
    callers: [],
    background: true,
  },
  {
    name: 'mail',
    dir: 'services/mail',
    entry: 'services/mail/src/main.ts',
    port: 3008,
    schema: 'mail',
    role: 'mail',
    signsAs: 'mail',
    routes: [],
    callers: [],
    background: true,
  },
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
export const FRONTENDS = ['shell', 'storefront', 'profile', 'admin'] as const;
export type FrontendName = (typeof FRONTENDS)[number];
