import { Router } from '@koa/router';
import { parseParams, type ServiceAuth } from '@ticketing/platform';
import { certificatePdfParams } from '@ticketing/proto';
import type { CertificatesDeps } from '../domain/deps.ts';
import { certificateFile } from '../domain/lookups.ts';
import { sendPdf } from './pdf-answer.ts';

/** For the other services (the gateway does not route /internal): the PDF mail attaches to a certificate's e-mail. */
export function internalRoutes(deps: CertificatesDeps, auth: ServiceAuth): Router {
  const router = new Router({ prefix: '/internal' });
  router.get('/certificates/:id/pdf', auth.require(['mail']), async (ctx) => {
    const { id } = parseParams(certificatePdfParams, ctx.params);
    sendPdf(ctx, await certificateFile(deps, { id }));
  });
  return router;
}
