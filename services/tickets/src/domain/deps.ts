import type { Knex, Logger, Outbox } from '@ticketing/platform';
import type { DoorMetrics } from './door-metrics.ts';
import type { TicketKeys } from './ticket-keys.ts';

/** What the tickets use cases need. */
export interface TicketsDeps {
  db: Knex;
  outbox: Outbox;
  logger: Logger;
  keys: TicketKeys;
  doorMetrics: DoorMetrics;
}
