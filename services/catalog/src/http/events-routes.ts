import { Router } from '@koa/router';
import { CALENDAR_CONTENT_TYPE, parseInput, parseParams, requireAdmin, type TokenVerifier } from '@ticketing/platform';
import {
  createEventSchema,
  eventImageParamsSchema,
  eventParamsSchema,
  eventSearchSchema,
  updateEventSchema,
} from '@ticketing/proto';
import type { CatalogDeps } from '../domain/catalog-event.ts';
import { getEvent, getEventCalendar, listEvents } from '../domain/browse-events.ts';
import { getEventImage } from '../domain/event-image.ts';
import { createEvent, deactivateEvent, updateEvent } from '../domain/manage-events.ts';

import { toEventView } from './views.ts';

/** The public catalog and its administration, routed by the gateway under /api; `publicUrl` is the site's address. */
export function eventRoutes(deps: CatalogDeps, verifyToken: TokenVerifier, publicUrl: string): Router {
  const router = new Router({ prefix: '/api/events' });
  const admin = requireAdmin(verifyToken);

  router.get('/', async (ctx) => {
    const search = parseInput(eventSearchSchema, ctx.query);
    ctx.body = (await listEvents(deps, search)).map(toEventView);
  });

  router.get('/:id', async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.body = toEventView(await getEvent(deps, id));
  });

  // The address names the content's hash: what it serves never changes, so browsers and proxies keep it a year.
  router.get('/images/:sha256', async (ctx) => {
    const { sha256 } = parseParams(eventImageParamsSchema, ctx.params);
    const image = await getEventImage(deps, sha256);
    ctx.type = image.contentType;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('ETag', `"${image.sha256}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = image.content;
  });

  router.get('/:id/calendar.ics', async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    const calendar = await getEventCalendar(deps, id, publicUrl);
    ctx.attachment(calendar.filename);
    ctx.type = CALENDAR_CONTENT_TYPE;
    ctx.body = calendar.content;
  });

  router.post('/', admin, async (ctx) => {
    const input = parseInput(createEventSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = toEventView(await createEvent(deps, input));
  });

  // PUT edits as PATCH does: the fields sent change (clients of ticketing APIs send either).
  router.register(
    '/:id',
    ['PUT', 'PATCH'],
    [
      admin,
      async (ctx) => {
        const input = parseInput(updateEventSchema, ctx.request.body);
        const { id } = parseParams(eventParamsSchema, ctx.params);
        ctx.body = toEventView(await updateEvent(deps, id, input));
      },
    ],
  );

  router.delete('/:id', admin, async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.body = toEventView(await deactivateEvent(deps, id));
  });

  return router;
}
