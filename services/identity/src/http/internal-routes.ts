import { Router } from '@koa/router';
import { findBuyer } from '../domain/directory.ts';
import type { IdentityDeps } from '../domain/user.ts';

/** For the other services inside the cluster (the gateway routes only /api): who a buyer is. */
export function internalRoutes(deps: IdentityDeps): Router {
  const router = new Router({ prefix: '/internal/users' });

  router.get('/:id', async (ctx) => {
    const user = await findBuyer(deps, ctx.params.id!);
    ctx.body = {
      id: user.id,
      name: user.name,
      email: user.email,
      cpf: user.cpf,
      phone: user.phone,
      emailVerified: user.emailVerified,
    };
  });

  return router;
}
