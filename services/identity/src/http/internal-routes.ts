import { Router } from '@koa/router';
import { notFound, parseParams, type ServiceAuth } from '@ticketing/platform';
import { userParamsSchema, type BuyerView, type SessionStateView } from '@ticketing/proto';
import { findBuyer } from '../domain/directory.ts';
import { refreshSessionState } from '../domain/sessions.ts';
import { messages, type IdentityDeps } from '../domain/user.ts';

/** Every service verifies tokens, so every one may ask where an account's sessions stand. */
const TOKEN_VERIFIERS = ['catalog', 'orders', 'payments', 'courtesy', 'tickets', 'mail', 'identity'] as const;

/** For the other services inside the cluster (the gateway routes only /api): who a buyer is, and their sessions. */
export function internalRoutes(deps: IdentityDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal' });

  router.get('/users/:userId', auth.require(['orders']), async (ctx) => {
    const { userId } = parseParams(userParamsSchema, ctx.params);
    const user = await findBuyer(deps, userId);
    ctx.body = {
      id: user.id,
      name: user.name,
      email: user.email,
      cpf: user.cpf,
      phone: user.phone,
      emailVerified: user.emailVerified,
    } satisfies BuyerView;
  });

  router.get('/sessions/:userId', auth.require(TOKEN_VERIFIERS), async (ctx) => {
    // Cached on the way: verifiers only read session states, identity alone writes them.
    const { userId } = parseParams(userParamsSchema, ctx.params);
    const state = await refreshSessionState(deps, userId);
    if (!state) throw notFound(messages.userNotFound);
    ctx.body = { state } satisfies SessionStateView;
  });

  return router;
}
