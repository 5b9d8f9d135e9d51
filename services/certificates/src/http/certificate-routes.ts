import { Router } from '@koa/router';
import {
  addressGroup,
  notFound,
  parseParams,
  rateLimitCheck,
  requireUser,
  type AuthUser,
  type Redis,
  type TokenVerifier,
} from '@ticketing/platform';
import {
  certificateCodeParams,
  certificateMessages,
  type CertificateView,
  type PublicCertificateView,
} from '@ticketing/proto';
import type { CertificatesConfig } from '../config.ts';
import type { CertificatesDeps } from '../domain/deps.ts';
import { certificateFile, myCertificates, verifyCertificate } from '../domain/lookups.ts';
import { sendPdf } from './pdf-answer.ts';

/** The holder's certificates and their PDFs, and the public check of a code. */
export function certificateRoutes(
  deps: CertificatesDeps,
  verifyToken: TokenVerifier,
  redis: Redis,
  config: Pick<CertificatesConfig, 'UNKNOWN_CODE_LOOKUPS' | 'UNKNOWN_CODE_WINDOW_SECONDS'>,
): Router {
  const router = new Router({ prefix: '/api/certificates' });
  const user = requireUser(verifyToken);
  // Only codes that exist nowhere count: a crowd behind one address checking real certificates is never stopped,
  // and whoever walks through the code space is.
  const unknownCodeBudget = rateLimitCheck({
    redis,
    logger: deps.logger,
    keyPrefix: 'certificate-limit',
    points: config.UNKNOWN_CODE_LOOKUPS,
    windowSeconds: config.UNKNOWN_CODE_WINDOW_SECONDS,
    refusedLog: 'unknown certificate codes looked up too often',
    message: certificateMessages.tooManyLookups,
    counted: (ctx) => {
      const address = addressGroup(ctx.ip);
      return { key: address, log: { address } };
    },
  });

  router.get('/', user, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = (await myCertificates(deps, ctx.state.user as AuthUser)) satisfies CertificateView[];
  });

  router.get('/:code', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    const found = await verifyCertificate(deps, ctx.params.code);
    if (!found) {
      await unknownCodeBudget(ctx);
      throw notFound(certificateMessages.notFound);
    }
    ctx.body = found satisfies PublicCertificateView;
  });

  router.get('/:code/pdf', user, async (ctx) => {
    const { code } = parseParams(certificateCodeParams, ctx.params);
    const reader = ctx.state.user as AuthUser;
    sendPdf(ctx, await certificateFile(deps, { code, reader }));
  });

  return router;
}
