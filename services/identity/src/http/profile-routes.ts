import { Router } from '@koa/router';
import { parseInput, requireUser } from '@ticketing/platform';
import { changePasswordSchema, deleteAccountSchema, updateProfileSchema } from '@ticketing/proto';
import { changePassword, deleteAccount, updateProfile } from '../domain/profile.ts';
import type { SessionUser } from '../domain/sessions.ts';
import { messages, type IdentityDeps } from '../domain/user.ts';
import { clientIp, retryAfter, sessionOf } from './input.ts';
import { toUserView } from './views.ts';

/** The logged-in user's own data, password and account, under /api/profile. */
export function profileRoutes(deps: IdentityDeps, verifySession: (token: string) => Promise<SessionUser>): Router {
  const router = new Router({ prefix: '/api/profile' });
  const authenticated = requireUser(verifySession);
  router.use(retryAfter);

  router.put('/', authenticated, async (ctx) => {
    const input = parseInput(updateProfileSchema, ctx.request.body);
    const user = await updateProfile(deps, sessionOf(ctx), input, clientIp(ctx));
    ctx.body = toUserView(user, deps.settings);
  });

  router.put('/password', authenticated, async (ctx) => {
    const input = parseInput(changePasswordSchema, ctx.request.body);
    ctx.body = await changePassword(deps, sessionOf(ctx), input, clientIp(ctx));
  });

  router.delete('/', authenticated, async (ctx) => {
    const input = parseInput(deleteAccountSchema, ctx.request.body);
    await deleteAccount(deps, sessionOf(ctx), input, clientIp(ctx));
    ctx.body = { message: messages.accountDeleted };
  });

  return router;
}
