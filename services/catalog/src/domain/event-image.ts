import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, type Upload } from '@ticketing/platform';
import { EVENT_IMAGE_LIMITS, eventImageUrl } from '@ticketing/proto';
import { findImage, saveImage, type EventImage } from '../data/images-repository.ts';
import type { AdminEvent } from '../data/admin-events-repository.ts';
import { getAdminEvent } from './admin-events.ts';
import { messages, type CatalogDeps } from './catalog-event.ts';
import { updateEvent } from './manage-events.ts';

const IMAGE_TYPES: ReadonlySet<string> = new Set(EVENT_IMAGE_LIMITS.types);

/**
 * Stores an uploaded image (JPEG, PNG or WebP by its content, up to 2 MB) and points the event at it, in one
 * transaction with the event's change.
 */
export async function uploadEventImage(deps: CatalogDeps, id: string, upload: Upload | undefined): Promise<AdminEvent> {
  if (!upload) throw new AppError(422, messages.imageRequired);
  if (upload.content.length > EVENT_IMAGE_LIMITS.bytes) throw new AppError(413, messages.imageTooLarge);
  const type = await fileTypeFromBuffer(upload.content);
  if (!type || !IMAGE_TYPES.has(type.mime)) throw new AppError(415, messages.imageType);
  const sha256 = createHash('sha256').update(upload.content).digest('hex');
  await deps.db.transaction(async (trx) => {
    await saveImage(trx, { sha256, contentType: type.mime, content: upload.content });
    await updateEvent({ ...deps, db: trx }, id, { imageUrl: eventImageUrl(sha256) });
  });
  deps.logger.info({ eventId: id, sha256, contentType: type.mime, bytes: upload.content.length }, 'event image stored');
  return getAdminEvent(deps, id);
}

/** A stored image by the hash in its address. */
export async function getEventImage(deps: Pick<CatalogDeps, 'db'>, sha256: string): Promise<EventImage> {
  const image = await findImage(deps.db, sha256);
  if (!image) throw new AppError(404, messages.imageNotFound);
  return image;
}
