import { Router } from '@koa/router';
import { parseInput, requireAdmin } from '@ticketing/platform';
import { doorStaffQuerySchema, doorStaffSchema, grantRolesSchema, type DoorStaffView } from '@ticketing/proto';
import { grantRoles } from '../domain/admin.ts';
import { assignDoorStaff, doorStaffOf } from '../domain/door-staff.ts';
import type { SessionUser } from '../domain/sessions.ts';
import type { IdentityDeps } from '../domain/user.ts';
import { sessionOf } from './input.ts';
import { toUserView } from './views.ts';

/** What administrators manage about accounts, under /api/admin/users: roles and who works each event's door. */
export function adminRoutes(deps: IdentityDeps, verifySession: (token: string) => Promise<SessionUser>): Router {
  const router = new Router({ prefix: '/api/admin/users' });

  router.put('/roles', requireAdmin(verifySession), async (ctx) => {
    const user = await grantRoles(deps, sessionOf(ctx), parseInput(grantRolesSchema, ctx.request.body));
    const { id, name, email, roles } = toUserView(user, deps.settings);
    ctx.body = { id, name, email, roles };
  });

  router.get('/door-staff', requireAdmin(verifySession), async (ctx) => {
    const { eventId } = parseInput(doorStaffQuerySchema, ctx.query);
    ctx.body = { staff: await doorStaffOf(deps, sessionOf(ctx), eventId) } satisfies DoorStaffView;
  });

  router.put('/door-staff', requireAdmin(verifySession), async (ctx) => {
    const staff = await assignDoorStaff(deps, sessionOf(ctx), parseInput(doorStaffSchema, ctx.request.body));
    ctx.body = { staff } satisfies DoorStaffView;
  });

  return router;
}
