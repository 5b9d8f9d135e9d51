import { attachmentInfo, findJob, pendingRows, type JobRow } from '../data/jobs-repository.ts';
import type { CourtesyDeps } from '../domain/deps.ts';
import { eventForLinks, releaseLeftoverHolds, type LinkEvent } from '../domain/links.ts';
import { inviteGuest, type JobAttachment } from '../domain/mass-send/invite.ts';

/**
 * One round of the background work: the invitations of mass sends still pending, `concurrency` guests at a time,
 * and the catalog releases of deactivated links that did not go through. A round ends when nothing is pending or
 * a whole batch failed for passing reasons (the catalog down): the next round, woken or polled, tries again. Closing
 * the service stops a round between guests; the rest waits in the database for the next process.
 */
export function massSendRound(deps: CourtesyDeps, concurrency: number) {
  return async (signal: AbortSignal) => {
    await releaseLeftoverHolds(deps);
    const events = new Map<string, Promise<LinkEvent>>();
    const event = (id: string) => {
      if (!events.has(id)) events.set(id, eventForLinks(deps, id));
      return events.get(id)!;
    };
    const jobs = new Map<string, Promise<{ createdBy: string; attachment: JobAttachment | null }>>();
    const jobOf = (id: string) => {
      if (!jobs.has(id)) jobs.set(id, jobContext(deps, id));
      return jobs.get(id)!;
    };
    while (!signal.aborted) {
      const rows = await pendingRows(deps.db, concurrency * 8);
      if (rows.length === 0) return;
      let settled = 0;
      for (let i = 0; i < rows.length && !signal.aborted; i += concurrency) {
        const results = await Promise.allSettled(
          rows.slice(i, i + concurrency).map(async (row: JobRow) => {
            await inviteGuest(deps, row, { ...(await jobOf(row.jobId)), event });
          }),
        );
        for (const result of results) {
          if (result.status === 'fulfilled') settled++;
          else deps.logger.warn({ err: result.reason }, 'invitation postponed');
        }
      }
      if (settled === 0) return;
      events.clear();
    }
  };
}

async function jobContext(deps: CourtesyDeps, jobId: string) {
  const job = (await findJob(deps.db, jobId))!;
  const file = job.attachmentId ? await attachmentInfo(deps.db, job.attachmentId) : undefined;
  const attachment = file ? { id: file.id, filename: file.filename, contentType: file.content_type } : null;
  return { createdBy: job.createdBy, attachment };
}
