import { randomUUID } from 'node:crypto';
import { AppError } from '@ticketing/platform';
import { settleRow, type JobRow } from '../../data/jobs-repository.ts';
import { redeemUrl } from '../codes.ts';
import type { CourtesyDeps } from '../deps.ts';
import { issueLink, ticketTypeForLink, type LinkEvent } from '../links.ts';

/** The file attached to every invitation of a job. */
export interface JobAttachment {
  id: string;
  filename: string;
  contentType: string;
}

/**
 * Invites one guest of a mass send: makes the row's free link (its id was chosen when the job was made, so a retry
 * makes the same link and holds nothing twice), and in the same transaction settles the row and writes
 * `courtesy.invited` for mail. A refusal (the event lost its spots or closed) settles the row as failed with why;
 * anything else leaves it pending for the next round.
 */
export async function inviteGuest(
  deps: CourtesyDeps,
  row: JobRow,
  context: { createdBy: string; attachment: JobAttachment | null; event: (id: string) => Promise<LinkEvent> },
): Promise<void> {
  try {
    const linkEvent = await context.event(row.eventId);
    await issueLink(
      deps,
      {
        id: row.linkId,
        eventId: row.eventId,
        event: linkEvent.event,
        // A guest of a mass send gets the event's first type.
        ticketType: ticketTypeForLink(linkEvent),
        recipientName: row.name,
        recipientEmail: row.email,
        ticketCount: row.ticketCount,
        overridePrice: null,
        createdBy: context.createdBy,
        jobId: row.jobId,
      },
      async (trx, link) => {
        if (!(await settleRow(trx, row, { state: 'sent' }))) return;
        await deps.outbox.add(trx, 'courtesy.invited', link.id, {
          invitationId: randomUUID(),
          jobId: row.jobId,
          linkId: link.id,
          code: link.code,
          redeemUrl: redeemUrl(deps.siteUrl, link),
          ticketCount: link.ticketCount,
          overridePrice: link.overridePrice,
          recipient: { name: row.name, email: row.email },
          event: { title: link.event.title, date: link.event.date.toISOString(), location: link.event.location },
          attachment: context.attachment,
        });
      },
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    await deps.db.transaction((trx) => settleRow(trx, row, { state: 'failed', error: error.message }));
    deps.logger.warn({ jobId: row.jobId, line: row.line, reason: error.message }, 'guest not invited');
  }
}
