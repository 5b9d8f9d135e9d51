import type { DatabaseRole } from '@ticketing/platform';

/** The processes `npm start` runs, with the ports the rest of the system expects (compose and k8s use the same). */
export interface App {
  name: string;
  entry: string;
  port: number;
}

/** A service, and the database role it logs in as (its schema's owner; the door API a role of its own). */
export interface ServiceApp extends App {
  role: DatabaseRole;
  /** The name it signs its calls and events as: its own unless set (both tickets processes are `tickets`). */
  identity?: string;
  /**
   * Works from the bus alone (no `/api` route leads to it): no request waits on it, so on one machine it runs on the
   * CPU the others leave and a sales rush's answers come before its e-mails and tickets.
   */
  background?: true;
}

export const services: ServiceApp[] = [
  { name: 'identity', entry: 'services/identity/src/main.ts', port: 3001, role: 'identity' },
  { name: 'catalog', entry: 'services/catalog/src/main.ts', port: 3002, role: 'catalog' },
  { name: 'orders', entry: 'services/orders/src/main.ts', port: 3003, role: 'orders' },
  { name: 'payments', entry: 'services/payments/src/main.ts', port: 3004, role: 'payments' },
  { name: 'courtesy', entry: 'services/courtesy/src/main.ts', port: 3005, role: 'courtesy' },
  {
    name: 'tickets-verifier',
    entry: 'services/tickets/src/verifier.ts',
    port: 3006,
    role: 'tickets_verifier',
    identity: 'tickets',
  },
  {
    name: 'tickets-worker',
    entry: 'services/tickets/src/worker.ts',
    port: 3007,
    role: 'tickets',
    identity: 'tickets',
    background: true,
  },
  { name: 'mail', entry: 'services/mail/src/main.ts', port: 3008, role: 'mail', background: true },
];

/** The local stand-in for the payment provider: Asaas's API on :8090, sending its webhooks to the gateway. */
export const paymentSandbox: App = { name: 'asaas-sandbox', entry: 'tools/asaas-sandbox/src/main.ts', port: 8090 };

/** The gateway, with its ops port for `/healthz` and `/metrics`. */
export const gateway: App & { opsPort: number } = {
  name: 'gateway',
  entry: 'gateway/src/main.ts',
  port: 8080,
  opsPort: 9090,
};

/** The gateway finds each running service through `<NAME>_URL`. */
export const upstreamUrls = (apps: App[]) =>
  Object.fromEntries(
    apps.map((app) => [`${app.name.toUpperCase().replaceAll('-', '_')}_URL`, `http://127.0.0.1:${app.port}`]),
  );
