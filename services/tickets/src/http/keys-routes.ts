import { Router } from '@koa/router';
import type { TicketKeys } from '../domain/ticket-keys.ts';
import { QR_FORMAT } from '@ticketing/proto';

/** The public keys that verify QR codes, for scanners that check tickets offline. */
export function keyRoutes(keys: TicketKeys): Router {
  const router = new Router();

  router.get('/api/ticket-keys', async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = { format: QR_FORMAT, keys: await keys.published() };
  });

  return router;
}
