import type { Knex } from '@ticketing/platform';

export interface EventSnapshot {
  title: string;
  date: Date;
  location: string;
}

/** The type a link's tickets are of. */
export interface LinkTicketType {
  id: string;
  name: string;
  requiresDocument: boolean;
}

export interface CourtesyLink {
  id: string;
  code: string;
  eventId: string;
  event: EventSnapshot;
  /** Null for a link made before links named a type: its tickets are of the event's one type. */
  ticketType: LinkTicketType | null;
  recipientName: string | null;
  recipientEmail: string | null;
  ticketCount: number;
  usedCount: number;
  /** The ticket price a promotional link sets ("80.00"); null for a free link. */
  overridePrice: string | null;
  createdBy: string;
  isActive: boolean;
  holdId: string | null;
  holdReleasedAt: Date | null;
  jobId: string | null;
  createdAt: Date;
}

export type NewLink = Pick<
  CourtesyLink,
  | 'id'
  | 'code'
  | 'eventId'
  | 'event'
  | 'ticketType'
  | 'recipientName'
  | 'recipientEmail'
  | 'ticketCount'
  | 'overridePrice'
  | 'createdBy'
  | 'holdId'
  | 'jobId'
>;

interface LinkRow {
  id: string;
  code: string;
  event_id: string;
  event_title: string;
  event_date: Date;
  event_location: string;
  ticket_type_id: string | null;
  ticket_type_name: string | null;
  ticket_type_requires_document: boolean | null;
  recipient_name: string | null;
  recipient_email: string | null;
  ticket_count: number;
  used_count: number;
  override_price: string | null;
  created_by: string;
  is_active: boolean;
  hold_id: string | null;
  hold_released_at: Date | null;
  job_id: string | null;
  created_at: Date;
}

const toLink = (row: LinkRow): CourtesyLink => ({
  id: row.id,
  code: row.code,
  eventId: row.event_id,
  event: { title: row.event_title, date: row.event_date, location: row.event_location },
  ticketType: row.ticket_type_id
    ? {
        id: row.ticket_type_id,
        name: row.ticket_type_name!,
        requiresDocument: row.ticket_type_requires_document ?? false,
      }
    : null,
  recipientName: row.recipient_name,
  recipientEmail: row.recipient_email,
  ticketCount: row.ticket_count,
  usedCount: row.used_count,
  overridePrice: row.override_price,
  createdBy: row.created_by,
  isActive: row.is_active,
  holdId: row.hold_id,
  holdReleasedAt: row.hold_released_at,
  jobId: row.job_id,
  createdAt: row.created_at,
});

const one = (rows: LinkRow[]) => (rows[0] ? toLink(rows[0]) : undefined);

/** Stores a new link; undefined when its code (or id) is already taken. */
export async function insertLink(db: Knex, link: NewLink): Promise<CourtesyLink | undefined> {
  const rows = (await db('courtesy_links')
    .insert({
      id: link.id,
      code: link.code,
      event_id: link.eventId,
      event_title: link.event.title,
      event_date: link.event.date,
      event_location: link.event.location,
      ticket_type_id: link.ticketType?.id ?? null,
      ticket_type_name: link.ticketType?.name ?? null,
      ticket_type_requires_document: link.ticketType?.requiresDocument ?? null,
      recipient_name: link.recipientName,
      recipient_email: link.recipientEmail,
      ticket_count: link.ticketCount,
      override_price: link.overridePrice,
      created_by: link.createdBy,
      hold_id: link.holdId,
      job_id: link.jobId,
    })
    .onConflict()
    .ignore()
    .returning('*')) as LinkRow[];
  return one(rows);
}

export async function findLink(db: Knex, id: string): Promise<CourtesyLink | undefined> {
  return one((await db('courtesy_links').where({ id }).limit(1)) as LinkRow[]);
}

export async function findLinkByCode(db: Knex, code: string): Promise<CourtesyLink | undefined> {
  return one((await db('courtesy_links').where({ code }).limit(1)) as LinkRow[]);
}

/** A page of links, newest first, and how many there are in all. */
export async function listLinks(db: Knex, page: number, size: number) {
  const [rows, [{ count }]] = await Promise.all([
    db('courtesy_links')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(size)
      .offset((page - 1) * size) as Promise<LinkRow[]>,
    db('courtesy_links').count({ count: '*' }) as unknown as Promise<[{ count: string }]>,
  ]);
  return { links: rows.map(toLink), total: Number(count) };
}

/**
 * Takes one use of an active link of an upcoming event with one conditional statement: never more than its
 * ticket count, whatever the concurrency. `promotional` says which kind of link the caller may use.
 */
export async function takeUse(
  trx: Knex,
  where: { code: string; promotional: boolean; eventId?: string },
): Promise<CourtesyLink | undefined> {
  const query = trx('courtesy_links')
    .where({ code: where.code, is_active: true })
    .where('used_count', '<', trx.ref('ticket_count'))
    .where('event_date', '>', trx.fn.now())
    .where((q) => (where.promotional ? q.whereNotNull('override_price') : q.whereNull('override_price')));
  if (where.eventId) query.where({ event_id: where.eventId });
  const rows = (await query
    .update({ used_count: trx.raw('used_count + 1'), updated_at: trx.fn.now() })
    .returning('*')) as LinkRow[];
  return one(rows);
}

/** Gives one use back to a link. */
export async function giveUseBack(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('courtesy_links')
    .where({ id })
    .where('used_count', '>', 0)
    .update({ used_count: trx.raw('used_count - 1'), updated_at: trx.fn.now() });
}

/** Deactivates a link once: no use can be taken after it, so its used count is final. */
export async function deactivate(db: Knex, id: string): Promise<CourtesyLink | undefined> {
  const rows = (await db('courtesy_links')
    .where({ id, is_active: true })
    .update({ is_active: false, updated_at: db.fn.now() })
    .returning('*')) as LinkRow[];
  return one(rows);
}

export async function markHoldReleased(db: Knex, id: string): Promise<void> {
  await db('courtesy_links').where({ id }).whereNull('hold_released_at').update({ hold_released_at: db.fn.now() });
}

/** Inactive free links whose unused spots are still held in the catalog (a release that did not go through). */
export async function linksAwaitingRelease(db: Knex, limit: number): Promise<CourtesyLink[]> {
  const rows = (await db('courtesy_links')
    .where({ is_active: false })
    .whereNotNull('hold_id')
    .whereNull('hold_released_at')
    .orderBy('updated_at')
    .limit(limit)) as LinkRow[];
  return rows.map(toLink);
}

/** Keeps the event shown by the links of an event current. */
export async function updateEventSnapshot(trx: Knex.Transaction, eventId: string, event: EventSnapshot) {
  await trx('courtesy_links')
    .where({ event_id: eventId })
    .update({ event_title: event.title, event_date: event.date, event_location: event.location });
}
