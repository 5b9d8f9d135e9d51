import { Router } from '@koa/router';
import { apiSecurityHeaders, defineService } from '@ticketing/platform';
import { verifierConfig, workerConfig } from './config.ts';
import { doorNoticePublisher, subscribeDoorNotices } from './consumers/door-notices.ts';
import { ticketsConsumers } from './consumers/index.ts';
import { ticketsMigrations } from './data/migrations.ts';
import type { TicketsDeps } from './domain/deps.ts';
import { createDoor } from './domain/door.ts';
import { createLiveCounts } from './domain/door-counts.ts';
import { createDoorMetrics } from './domain/door-metrics.ts';
import { createLiveStreams } from './domain/live-streams.ts';
import { createTicketKeys, ensureTicketKey } from './domain/ticket-keys.ts';
import { doorDeviceRoutes } from './http/door-device-routes.ts';
import { doorRoutes } from './http/door-routes.ts';
import { keyRoutes } from './http/keys-routes.ts';
import { liveRoutes } from './http/live-routes.ts';
import { myTicketsRoutes } from './http/my-tickets-routes.ts';
import { participantsRoutes } from './http/participants-routes.ts';
import { doorLimits } from './http/staffer-limit.ts';

/**
 * The door API: verifies QR codes and resets used tickets; the back office's participants; a holder's own tickets. No consumers (only the relay of its own outbox),
 * so it can be scaled out on event days without touching the event flow.
 */
export const ticketsVerifierService = defineService({
  name: 'tickets-verifier',
  // One schema, one outbox: either process's relay may publish the other's events, so both speak as `tickets`.
  identity: 'tickets',
  config: verifierConfig,
  migrations: ticketsMigrations,
  async setup({ config, db, redis, outbox, logger, metrics, verifyToken }) {
    // Public keys only: the worker makes the signing key, whose private half this process may not read.
    const keys = createTicketKeys(db, logger, config.TICKET_KEYS_REFRESH_SECONDS * 1000);
    await keys.refresh();
    const deps: TicketsDeps = { db, outbox, logger, keys, doorMetrics: createDoorMetrics(metrics.registry) };
    const limits = doorLimits({
      redis,
      logger,
      searchesPerMinute: config.DOOR_SEARCHES_PER_MINUTE,
      readingsPerMinute: config.DOOR_READINGS_PER_MINUTE,
    });
    const router = new Router();
    // The Ingress sends the door here straight: its answers carry the headers the gateway gives the rest.
    router.use(apiSecurityHeaders());
    for (const routes of [
      doorRoutes(deps, createDoor(deps), verifyToken, limits),
      doorDeviceRoutes(deps, verifyToken, limits),
      participantsRoutes(deps, verifyToken),
      myTicketsRoutes(deps, verifyToken),
      keyRoutes(keys),
    ])
      router.use(routes.routes());
    // Live counts: each verifier hears every change to the tickets and tells its own door panels.
    const live = createLiveCounts({ db, logger });
    const recheckMs = config.DOOR_LIVE_RECHECK_SECONDS * 1000;
    // A stream not seen alive for three checks belongs to a replica that is gone.
    const streams = createLiveStreams({
      redis,
      logger,
      perUser: config.DOOR_LIVE_STREAMS_PER_USER,
      staleMs: 3 * recheckMs,
    });
    router.use(liveRoutes({ db }, { live, streams, recheckMs }, verifyToken).routes());
    const notices = await subscribeDoorNotices(redis, config.REDIS_PREFIX, live, logger);
    return {
      router,
      async close() {
        live.close();
        await notices.close();
      },
    };
  },
});

/** Issues tickets: one signed QR code per line of a paid order, reissued to a new holder. */
export const ticketsWorkerService = defineService({
  name: 'tickets-worker',
  identity: 'tickets',
  config: workerConfig,
  migrations: ticketsMigrations,
  async setup({ config, db, redis, outbox, logger }) {
    const keys = createTicketKeys(db, logger, config.TICKET_KEYS_REFRESH_SECONDS * 1000);
    await ensureTicketKey({ db, logger });
    const deps = { outbox, logger, keys };
    const router = new Router();
    router.use(keyRoutes(keys).routes());
    return { router, consumers: ticketsConsumers(deps, doorNoticePublisher(redis, config.REDIS_PREFIX, logger)) };
  },
});
