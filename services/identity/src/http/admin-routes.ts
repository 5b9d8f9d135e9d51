import { Router } from '@koa/router';
import { parseInput, requireAdmin } from '@ticketing/platform';
import { grantRolesSchema } from '@ticketing/proto';
import { grantRoles } from '../domain/admin.ts';
import type { SessionUser } from '../domain/sessions.ts';
import type { IdentityDeps } from '../domain/user.ts';
import { sessionOf } from './input.ts';
import { toUserView } from './views.ts';

/** What administrators manage about accounts, under /api/admin/users. */
export function adminRoutes(deps: IdentityDeps, verifySession: (token: string) => Promise<SessionUser>): Router {
  const router = new Router({ prefix: '/api/admin/users' });

  router.put('/roles', requireAdmin(verifySession), async (ctx) => {
    const user = await grantRoles(deps, sessionOf(ctx), parseInput(grantRolesSchema, ctx.request.body));
    const { id, name, email, roles } = toUserView(user, deps.settings);
    ctx.body = { id, name, email, roles };
  });

  return router;
}
