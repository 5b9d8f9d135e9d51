import type { Router } from '@koa/router';
import type { ServiceDefinition } from '@ticketing/platform';
import { SERVICES, type ServiceName } from '@ticketing/proto';
import { catalogService } from '@ticketing/catalog';
import { certificatesService } from '@ticketing/certificates';
import { courtesyService } from '@ticketing/courtesy';
import { identityService } from '@ticketing/identity';
import { ordersService } from '@ticketing/orders';
import { paymentsService } from '@ticketing/payments';
import { ticketsVerifierService } from '@ticketing/tickets';
import { dropSchemas, startTestService, uniqueName, type TestService } from '@ticketing/testkit';

/** A route a service answers: its method and its path as the router writes it (`/api/orders/:id/cancel`). */
export interface ServedRoute {
  service: ServiceName;
  method: string;
  path: string;
}

/** The services the gateway sends `/api` calls to, each as it starts in production. */
const DEFINITIONS: Partial<Record<ServiceName, ServiceDefinition>> = {
  identity: identityService as ServiceDefinition,
  catalog: catalogService as ServiceDefinition,
  orders: ordersService as ServiceDefinition,
  payments: paymentsService as ServiceDefinition,
  courtesy: courtesyService as ServiceDefinition,
  'tickets-verifier': ticketsVerifierService as ServiceDefinition,
  certificates: certificatesService as ServiceDefinition,
};

/** Only `/api` reaches a service from outside; Koa's implied HEAD answers every GET. */
const isPublic = (method: string, path: string) => method !== 'HEAD' && (path === '/api' || path.startsWith('/api/'));

/** A path without the trailing slash a router writes for its prefix's own route (`/api/orders/`). */
const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * Starts every service with an `/api` route in-process, as production configures it (no development tools), and
 * reads the routes each one's router actually serves.
 */
export async function publicRoutesServed(): Promise<{ routes: ServedRoute[]; stop(): Promise<void> }> {
  const busSchema = uniqueName('bus');
  const running: TestService<unknown>[] = [];
  const routes: ServedRoute[] = [];
  try {
    for (const { name, routes: paths } of SERVICES) {
      const definition = DEFINITIONS[name];
      if (!definition && paths.length > 0) throw new Error(`${name} serves /api paths: add its definition here`);
      if (!definition) continue;
      let router: Router | undefined;
      const watched: ServiceDefinition = {
        ...definition,
        async setup(deps) {
          const parts = await definition.setup(deps);
          router = parts.router;
          return parts;
        },
      };
      running.push(
        (await startTestService(watched, { busSchema, env: { DEV_TOOLS: 'false' } })) as TestService<unknown>,
      );
      for (const layer of router?.stack ?? []) {
        // A route written as a regular expression keeps its source: no description matches it, so it is reported.
        const path = String(layer.path);
        for (const method of layer.methods) {
          if (isPublic(method, path)) routes.push({ service: name, method, path: withoutTrailingSlash(path) });
        }
      }
    }
  } catch (error) {
    for (const service of running.reverse()) await service.stop();
    throw error;
  }
  return {
    routes,
    async stop() {
      for (const service of running.reverse()) await service.stop();
      await dropSchemas([busSchema]);
    },
  };
}
