import type { ServiceSchema } from '@ticketing/platform';

/** The processes `npm start` runs, with the ports the rest of the system expects (compose and k8s use the same). */
export interface App {
  name: string;
  entry: string;
  port: number;
}

/** A service, and the database schema (and role) it owns. */
export interface ServiceApp extends App {
  schema: ServiceSchema;
}

export const services: ServiceApp[] = [
  { name: 'identity', entry: 'services/identity/src/main.ts', port: 3001, schema: 'identity' },
  { name: 'catalog', entry: 'services/catalog/src/main.ts', port: 3002, schema: 'catalog' },
  { name: 'orders', entry: 'services/orders/src/main.ts', port: 3003, schema: 'orders' },
  { name: 'payments', entry: 'services/payments/src/main.ts', port: 3004, schema: 'payments' },
  { name: 'courtesy', entry: 'services/courtesy/src/main.ts', port: 3005, schema: 'courtesy' },
  { name: 'tickets-verifier', entry: 'services/tickets/src/verifier.ts', port: 3006, schema: 'tickets' },
  { name: 'tickets-worker', entry: 'services/tickets/src/worker.ts', port: 3007, schema: 'tickets' },
  { name: 'mail', entry: 'services/mail/src/main.ts', port: 3008, schema: 'mail' },
];

/** The local stand-in for the payment provider: Asaas's API on :8090, sending its webhooks to the gateway. */
export const paymentSandbox: App = { name: 'asaas-sandbox', entry: 'services/payments/sandbox/main.ts', port: 8090 };

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
