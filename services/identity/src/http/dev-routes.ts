import { Router } from '@koa/router';
import { parseParams, requireUser } from '@ticketing/platform';
import { userParamsSchema } from '@ticketing/proto';
import { makeAdmin } from '../domain/admin.ts';
import type { SessionUser } from '../domain/sessions.ts';
import type { IdentityDeps } from '../domain/user.ts';
import { sessionOf } from './input.ts';

/** Development tools (the /admin-test page). Mounted only when DEV_TOOLS is on; otherwise these paths are 404. */
export function devRoutes(deps: IdentityDeps, verifySession: (token: string) => Promise<SessionUser>): Router {
  const router = new Router({ prefix: '/api/make-admin' });

  router.post('/:userId', requireUser(verifySession), async (ctx) => {
    const { userId } = parseParams(userParamsSchema, ctx.params);
    const user = await makeAdmin(deps, sessionOf(ctx), userId);
    ctx.body = { user: { id: user.id, name: user.name, isAdmin: user.isAdmin } };
  });

  return router;
}
