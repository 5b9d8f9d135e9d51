import { Router } from '@koa/router';
import type { IdentityDeps } from '../domain/user.ts';

/** The public keys that verify session tokens, for the gateway and the services; the gateway does not route it. */
export function keyRoutes(deps: Pick<IdentityDeps, 'keys'>): Router {
  const router = new Router();

  router.get('/.well-known/jwks.json', async (ctx) => {
    // Read fresh: verifiers come here precisely when a token names a key they have not seen.
    const jwks = await deps.keys.refresh();
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = jwks;
  });

  return router;
}
