import { createHash, randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, conflict, type AuthUser, type Upload } from '@ticketing/platform';
import { MASS_SEND_LIMITS, type EventView } from '@ticketing/proto';
import { insertAttachment, insertJob, sameFileSince, type MassSendJob } from '../../data/jobs-repository.ts';
import { messages, type CourtesyDeps } from '../deps.ts';
import { readGuestCsv, type GuestRow } from './read-csv.ts';

const ATTACHMENT_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg']);
const SAME_FILE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * POST /api/courtesy/mass-send: checks the whole file first (every row, every event, the spots), and only a file
 * without problems becomes a job: one free link and one invitation e-mail per row, made in the background by the
 * mass-send worker. The same file again within 24 h needs `confirmed`, so a double click never invites twice.
 */
export async function startMassSend(
  deps: CourtesyDeps,
  admin: AuthUser,
  upload: { csv: Upload; attachment?: Upload; confirmed: boolean },
): Promise<MassSendJob> {
  const attachment = upload.attachment && (await checkedAttachment(upload.attachment));
  const { rows, problems } = await readGuestCsv(upload.csv.content);
  problems.push(...(await eventProblems(deps, rows)));
  if (problems.length > 0) {
    const byLine = problems.sort((a, b) => lineOf(a) - lineOf(b));
    throw new AppError(422, messages.csvRows, byLine.slice(0, 200));
  }
  const fileHash = createHash('sha256').update(upload.csv.content).digest('hex');
  if (!upload.confirmed && (await sameFileSince(deps.db, fileHash, new Date(Date.now() - SAME_FILE_WINDOW_MS)))) {
    throw conflict(messages.duplicateUpload);
  }
  const jobId = randomUUID();
  const job = await deps.db.transaction(async (trx) => {
    if (attachment) await insertAttachment(trx, attachment);
    return insertJob(trx, {
      id: jobId,
      createdBy: admin.id,
      fileHash,
      attachmentId: attachment?.id ?? null,
      rows: rows.map((row) => ({ ...row, jobId, linkId: randomUUID() })),
    });
  });
  deps.logger.info({ jobId, total: job.total, attachment: !!attachment }, 'mass send queued');
  return job;
}

const lineOf = (problem: string) => Number(/^Linha (\d+)/.exec(problem)?.[1] ?? 0);

async function checkedAttachment(upload: Upload) {
  if (upload.content.length > MASS_SEND_LIMITS.attachmentBytes) throw new AppError(413, messages.attachmentTooLarge);
  const type = await fileTypeFromBuffer(upload.content);
  if (!type || !ATTACHMENT_TYPES.has(type.mime)) throw new AppError(415, messages.attachmentType);
  return { id: randomUUID(), filename: upload.filename, contentType: type.mime, content: upload.content };
}

/** Rows whose event is unknown, closed, or lacks the spots the file asks for (counted in file order). */
async function eventProblems(deps: CourtesyDeps, rows: GuestRow[]): Promise<string[]> {
  const events = new Map<string, EventView | null>();
  for (const eventId of new Set(rows.map((row) => row.eventId))) {
    try {
      events.set(eventId, await deps.catalog.getEvent(eventId));
    } catch (error) {
      // Unknown or cancelled: the rows for it say so.
      if (error instanceof AppError && error.status === 404) {
        events.set(eventId, null);
        continue;
      }
      deps.logger.warn({ err: error, eventId }, 'catalog unavailable');
      throw new AppError(503, messages.serviceUnavailable);
    }
  }
  const asked = new Map<string, number>();
  return rows.flatMap((row) => {
    const event = events.get(row.eventId);
    if (!event) return [`Linha ${row.line}: evento não encontrado`];
    if (!event.onSale) {
      return [`Linha ${row.line}: evento indisponível para cortesias`];
    }
    const total = (asked.get(row.eventId) ?? 0) + row.ticketCount;
    asked.set(row.eventId, total);
    if (event.remaining !== null && total > event.remaining) {
      return [`Linha ${row.line}: o evento não tem vagas suficientes para todas as cortesias do arquivo`];
    }
    return [];
  });
}
