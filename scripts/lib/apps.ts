import type { DatabaseRole } from '@ticketing/platform';
import { GATEWAY, PAYMENT_SANDBOX, SERVICES, urlSetting, type ServicePart } from '@ticketing/proto';

/** A process `npm start` runs, on the port the rest of the system expects (compose and k8s use the same). */
export interface App {
  name: string;
  entry: string;
  port: number;
}

/** A service of the list (proto's system.ts), with the database role it logs in as. */
export interface ServiceApp extends App, Pick<ServicePart, 'signsAs' | 'background'> {
  role: DatabaseRole;
}

export const services: ServiceApp[] = SERVICES.map(({ name, entry, port, role, signsAs, ...service }) => ({
  name,
  entry,
  port,
  role,
  signsAs,
  ...('background' in service ? { background: service.background } : {}),
}));

export const paymentSandbox: App = PAYMENT_SANDBOX;

export const gateway: App & { opsPort: number } = GATEWAY;

/** The gateway finds each running service through `<NAME>_URL`. */
export const upstreamUrls = (apps: App[]) =>
  Object.fromEntries(apps.map((app) => [urlSetting(app.name), `http://127.0.0.1:${app.port}`]));
