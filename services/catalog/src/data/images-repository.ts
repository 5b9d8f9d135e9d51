import type { Knex } from '@ticketing/platform';

export interface EventImage {
  sha256: string;
  contentType: string;
  content: Buffer;
}

/** Stores an image under the hash of its content; the same bytes stored twice are one row. */
export async function saveImage(trx: Knex.Transaction, image: EventImage): Promise<void> {
  await trx('event_images')
    .insert({ sha256: image.sha256, content_type: image.contentType, content: image.content })
    .onConflict('sha256')
    .ignore();
}

export async function findImage(db: Knex, sha256: string): Promise<EventImage | undefined> {
  const row = (await db('event_images').where({ sha256 }).first()) as
    { sha256: string; content_type: string; content: Buffer } | undefined;
  return row && { sha256: row.sha256, contentType: row.content_type, content: row.content };
}
