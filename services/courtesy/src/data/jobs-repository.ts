import type { Knex } from '@ticketing/platform';
import type { MassSendStatus } from '@ticketing/proto';

export interface MassSendJob {
  id: string;
  createdBy: string;
  status: MassSendStatus;
  total: number;
  sent: number;
  failed: number;
  attachmentId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface JobRow {
  jobId: string;
  line: number;
  name: string;
  email: string;
  ticketCount: number;
  eventId: string;
  linkId: string;
}

interface JobRecord {
  id: string;
  created_by: string;
  status: MassSendStatus;
  total: number;
  sent: number;
  failed: number;
  attachment_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const toJob = (row: JobRecord): MassSendJob => ({
  id: row.id,
  createdBy: row.created_by,
  status: row.status,
  total: row.total,
  sent: row.sent,
  failed: row.failed,
  attachmentId: row.attachment_id,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

export async function insertAttachment(
  trx: Knex.Transaction,
  attachment: { id: string; filename: string; contentType: string; content: Buffer },
) {
  await trx('attachments').insert({
    id: attachment.id,
    filename: attachment.filename,
    content_type: attachment.contentType,
    content: attachment.content,
  });
}

/** An attachment's name and type, without its bytes. */
export async function attachmentInfo(db: Knex, id: string) {
  return (await db('attachments').where({ id }).first('id', 'filename', 'content_type')) as
    { id: string; filename: string; content_type: string } | undefined;
}

export async function findAttachment(db: Knex, id: string) {
  return (await db('attachments').where({ id }).first()) as
    { id: string; filename: string; content_type: string; content: Buffer } | undefined;
}

/** Whether a job was made from this same file since `since`. */
export async function sameFileSince(db: Knex, fileHash: string, since: Date): Promise<boolean> {
  return !!(await db('mass_send_jobs').where({ file_hash: fileHash }).where('created_at', '>=', since).first('id'));
}

export async function insertJob(
  trx: Knex.Transaction,
  job: { id: string; createdBy: string; fileHash: string; attachmentId: string | null; rows: JobRow[] },
): Promise<MassSendJob> {
  const [record] = (await trx('mass_send_jobs')
    .insert({
      id: job.id,
      created_by: job.createdBy,
      file_hash: job.fileHash,
      total: job.rows.length,
      attachment_id: job.attachmentId,
    })
    .returning('*')) as JobRecord[];
  // Batches keep each statement well under PostgreSQL's limit of bound parameters.
  await trx.batchInsert(
    'mass_send_rows',
    job.rows.map((row) => ({
      job_id: row.jobId,
      line: row.line,
      name: row.name,
      email: row.email,
      ticket_count: row.ticketCount,
      event_id: row.eventId,
      link_id: row.linkId,
    })),
    500,
  );
  return toJob(record!);
}

export async function findJob(db: Knex, id: string): Promise<MassSendJob | undefined> {
  const record = (await db('mass_send_jobs').where({ id }).first()) as JobRecord | undefined;
  return record && toJob(record);
}

/** The rows that could not be invited, with why. */
export async function failedRows(db: Knex, jobId: string, limit: number) {
  return (await db('mass_send_rows')
    .where({ job_id: jobId, state: 'failed' })
    .orderBy('line')
    .limit(limit)
    .select('line', 'email', 'error')) as { line: number; email: string; error: string }[];
}

/** Rows still to invite, oldest job first. */
export async function pendingRows(db: Knex, limit: number): Promise<JobRow[]> {
  const rows = (await db('mass_send_rows')
    .where({ state: 'pending' })
    .orderBy([{ column: 'job_id' }, { column: 'line' }])
    .limit(limit)) as {
    job_id: string;
    line: number;
    name: string;
    email: string;
    ticket_count: number;
    event_id: string;
    link_id: string;
  }[];
  return rows.map((row) => ({
    jobId: row.job_id,
    line: row.line,
    name: row.name,
    email: row.email,
    ticketCount: row.ticket_count,
    eventId: row.event_id,
    linkId: row.link_id,
  }));
}

/**
 * Settles a pending row as sent or failed and counts it in its job, which is done when every row is settled.
 * False when the row was already settled (another worker got there first): nothing is counted twice.
 */
export async function settleRow(
  trx: Knex.Transaction,
  row: Pick<JobRow, 'jobId' | 'line'>,
  outcome: { state: 'sent' } | { state: 'failed'; error: string },
): Promise<boolean> {
  const changed = await trx('mass_send_rows')
    .where({ job_id: row.jobId, line: row.line, state: 'pending' })
    .update({ state: outcome.state, error: outcome.state === 'failed' ? outcome.error : null });
  if (changed === 0) return false;
  const counter = outcome.state;
  await trx('mass_send_jobs')
    .where({ id: row.jobId })
    .update({
      [counter]: trx.raw('?? + 1', [counter]),
      status: trx.raw(`case when sent + failed + 1 >= total then 'done' else 'running' end`),
      finished_at: trx.raw('case when sent + failed + 1 >= total then now() else null end'),
    });
  return true;
}
