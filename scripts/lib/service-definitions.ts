import type { ServiceDefinition } from '@ticketing/platform';
import type { ServiceName } from '@ticketing/proto';
import { catalogService } from '@ticketing/catalog';
import { certificatesService } from '@ticketing/certificates';
import { courtesyService } from '@ticketing/courtesy';
import { identityService } from '@ticketing/identity';
import { mailService } from '@ticketing/mail';
import { ordersService } from '@ticketing/orders';
import { paymentsService } from '@ticketing/payments';
import { ticketsVerifierService, ticketsWorkerService } from '@ticketing/tickets';

/** What a service's configuration is loaded with at boot: its settings, secrets and production rules. */
export type ConfigDefinition = Pick<ServiceDefinition, 'name' | 'identity' | 'config' | 'secrets' | 'productionChecks'>;

/** Each service's definition, to load a deployment's settings as the service itself would at boot. */
export const SERVICE_DEFINITIONS: Record<ServiceName, ConfigDefinition> = {
  identity: identityService,
  catalog: catalogService,
  orders: ordersService,
  payments: paymentsService,
  courtesy: courtesyService,
  'tickets-verifier': ticketsVerifierService,
  'tickets-worker': ticketsWorkerService,
  mail: mailService,
  certificates: certificatesService,
};
