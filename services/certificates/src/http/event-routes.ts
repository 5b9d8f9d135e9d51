import { Router } from '@koa/router';
import { parseInput, parseParams, requireAdmin, type TokenVerifier } from '@ticketing/platform';
import {
  certificateEventCodeParams,
  certificateEventParams,
  certificateSettingsSchema,
  correctCertificateSchema,
  type AdminCertificateView,
  type CertificateSettingsView,
  type IssueCertificatesAnswer,
} from '@ticketing/proto';
import { correctName } from '../domain/corrections.ts';
import type { CertificatesDeps } from '../domain/deps.ts';
import { adminView, eventCertificates } from '../domain/lookups.ts';
import { releaseCertificates } from '../domain/release.ts';
import { certificateSettings, knownEvent, updateCertificateSettings } from '../domain/settings.ts';

/** An event's certificates, for administrators: the settings, the release, the list and name corrections. */
export function eventRoutes(deps: CertificatesDeps, verifyToken: TokenVerifier): Router {
  const router = new Router({ prefix: '/api/events/:id' });
  const admin = requireAdmin(verifyToken);

  router.get('/certificate', admin, async (ctx) => {
    const { id } = parseParams(certificateEventParams, ctx.params);
    ctx.body = (await certificateSettings(deps, id)) satisfies CertificateSettingsView;
  });

  router.put('/certificate', admin, async (ctx) => {
    const { id } = parseParams(certificateEventParams, ctx.params);
    const input = parseInput(certificateSettingsSchema, ctx.request.body);
    ctx.body = (await updateCertificateSettings(deps, id, input)) satisfies CertificateSettingsView;
  });

  router.get('/certificates', admin, async (ctx) => {
    const { id } = parseParams(certificateEventParams, ctx.params);
    ctx.body = (await eventCertificates(deps, await knownEvent(deps, id))) satisfies AdminCertificateView[];
  });

  router.post('/certificates', admin, async (ctx) => {
    const { id } = parseParams(certificateEventParams, ctx.params);
    ctx.body = (await releaseCertificates(deps, id)) satisfies IssueCertificatesAnswer;
  });

  router.put('/certificates/:code', admin, async (ctx) => {
    const { id, code } = parseParams(certificateEventCodeParams, ctx.params);
    const { holderName } = parseInput(correctCertificateSchema, ctx.request.body);
    const reissued = await correctName(deps, id, code, holderName);
    ctx.body = adminView(reissued, await knownEvent(deps, id)) satisfies AdminCertificateView;
  });

  return router;
}
