import { Router } from '@koa/router';
import {
  multipartBody,
  parseInput,
  parseParams,
  readUploads,
  requireAdmin,
  type TokenVerifier,
} from '@ticketing/platform';
import {
  eventParamsSchema,
  adminCreateEventSchema,
  adminEventSearchSchema,
  adminUpdateEventSchema,
  cancelEventMessages,
  type CancelEventAnswer,
  cancelEventSchema,
  EVENT_IMAGE_FIELD,
  EVENT_IMAGE_LIMITS,
} from '@ticketing/proto';
import {
  createAdminEvent,
  duplicateEvent,
  editAdminEvent,
  getAdminEvent,
  listAdminEvents,
} from '../domain/admin-events.ts';
import { cancelEvent } from '../domain/cancel-event.ts';
import { messages, type CatalogDeps } from '../domain/catalog-event.ts';
import { uploadEventImage } from '../domain/event-image.ts';
import { toAdminEventView } from './views.ts';

const imageUpload = multipartBody({
  maxFiles: 1,
  maxFileBytes: EVENT_IMAGE_LIMITS.bytes,
  maxTotalBytes: EVENT_IMAGE_LIMITS.bytes,
  tooLargeMessage: messages.imageTooLarge,
  invalidMessage: messages.imageRequired,
});

/** The back office's events, for administrators only; the gateway routes `/api/admin/events` here. */
export function adminEventRoutes(deps: CatalogDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/admin/events' });
  router.use(requireAdmin(verifyToken));
  router.use(async (ctx, next) => {
    await next();
    ctx.set('Cache-Control', 'no-store');
  });

  router.get('/', async (ctx) => {
    const page = await listAdminEvents(deps, parseInput(adminEventSearchSchema, ctx.query));
    ctx.body = { ...page, events: page.events.map(toAdminEventView) };
  });

  router.post('/', async (ctx) => {
    const input = parseInput(adminCreateEventSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = toAdminEventView(await createAdminEvent(deps, input));
  });

  router.get('/:id', async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.body = toAdminEventView(await getAdminEvent(deps, id));
  });

  router.patch('/:id', async (ctx) => {
    const input = parseInput(adminUpdateEventSchema, ctx.request.body);
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.body = toAdminEventView(await editAdminEvent(deps, id, input));
  });

  router.post('/:id/image', imageUpload, async (ctx) => {
    const uploads = await readUploads(ctx);
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.body = toAdminEventView(await uploadEventImage(deps, id, uploads[EVENT_IMAGE_FIELD]));
  });

  router.post('/:id/duplicate', async (ctx) => {
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.status = 201;
    ctx.body = toAdminEventView(await duplicateEvent(deps, id));
  });

  // Accepted: the refunds and the holders' e-mails follow through the bus.
  router.post('/:id/cancel', async (ctx) => {
    const { reason } = parseInput(cancelEventSchema, ctx.request.body);
    const { id } = parseParams(eventParamsSchema, ctx.params);
    ctx.status = 202;
    ctx.body = {
      message: cancelEventMessages.confirmation,
      event: toAdminEventView(await cancelEvent(deps, id, reason)),
    } satisfies CancelEventAnswer;
  });

  return router;
}
