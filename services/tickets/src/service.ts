import { Router } from '@koa/router';
import { defineService } from '@ticketing/platform';
import { verifierConfig, workerConfig } from './config.ts';
import { ticketsConsumers } from './consumers/index.ts';
import { ticketsMigrations } from './data/migrations.ts';
import type { TicketsDeps } from './domain/deps.ts';
import { createTicketKeys, ensureTicketKey } from './domain/ticket-keys.ts';
import { doorRoutes } from './http/door-routes.ts';
import { keyRoutes } from './http/keys-routes.ts';

/**
 * The door API: verifies QR codes and resets used tickets. No consumers (only the relay of its own outbox),
 * so it can be scaled out on event days without touching the event flow.
 */
export const ticketsVerifierService = defineService({
  name: 'tickets-verifier',
  config: verifierConfig,
  migrations: ticketsMigrations,
  async setup({ config, db, outbox, logger, verifyToken }) {
    const keys = createTicketKeys(db, logger, config.TICKET_KEYS_REFRESH_SECONDS * 1000);
    await ensureTicketKey({ db, logger });
    await keys.refresh();
    const deps: TicketsDeps = { db, outbox, logger, keys };
    const router = new Router();
    for (const routes of [doorRoutes(deps, verifyToken), keyRoutes(keys)]) router.use(routes.routes());
    return { router };
  },
});

/** Issues tickets: one signed QR code per paid order. */
export const ticketsWorkerService = defineService({
  name: 'tickets-worker',
  config: workerConfig,
  migrations: ticketsMigrations,
  async setup({ config, db, outbox, logger }) {
    const keys = createTicketKeys(db, logger, config.TICKET_KEYS_REFRESH_SECONDS * 1000);
    await ensureTicketKey({ db, logger });
    const deps = { outbox, logger, keys };
    const router = new Router();
    router.use(keyRoutes(keys).routes());
    return { router, consumers: ticketsConsumers(deps) };
  },
});
