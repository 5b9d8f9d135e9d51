import { Router } from '@koa/router';
import {
  badRequest,
  multipartBody,
  notFound,
  parseParams,
  readUploads,
  requireRole,
  type AuthUser,
  type TokenVerifier,
} from '@ticketing/platform';
import { MASS_SEND_LIMITS, massSendJobParamsSchema } from '@ticketing/proto';
import { failedRows, findJob } from '../data/jobs-repository.ts';
import { messages, type CourtesyDeps } from '../domain/deps.ts';
import { startMassSend } from '../domain/mass-send/start.ts';
import { toJobView } from './views.ts';

const upload = multipartBody({
  maxFiles: 2,
  maxFileBytes: MASS_SEND_LIMITS.attachmentBytes,
  maxTotalBytes: MASS_SEND_LIMITS.attachmentBytes + MASS_SEND_LIMITS.csvBytes,
  tooLargeMessage: messages.attachmentTooLarge,
  invalidMessage: messages.csvRequired,
});

/** The mass send of courtesy invitations from a CSV file (with one optional attachment), and its progress. */
export function massSendRoutes(deps: CourtesyDeps, verifyToken: TokenVerifier, queued: () => void): Router {
  const router = new Router({ prefix: '/api/courtesy/mass-send' });
  router.use(requireRole(verifyToken, ['courtesyManager']));

  router.post('/', upload, async (ctx) => {
    const { csvFile, attachment } = await readUploads(ctx);
    if (!csvFile) throw badRequest(messages.csvRequired);
    const confirmed = ctx.query.confirm === '1' || ctx.query.confirm === 'true';
    const job = await startMassSend(deps, ctx.state.user as AuthUser, { csv: csvFile, attachment, confirmed });
    queued();
    ctx.status = 202;
    ctx.body = {
      message: 'Os e-mails de cortesia estão sendo processados e serão enviados em breve.',
      jobId: job.id,
      job: toJobView(job),
    };
  });

  router.get('/:jobId', async (ctx) => {
    const { jobId } = parseParams(massSendJobParamsSchema, ctx.params);
    const job = await findJob(deps.db, jobId);
    if (!job) throw notFound(messages.jobNotFound);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toJobView(job, await failedRows(deps.db, job.id, 100));
  });

  return router;
}
