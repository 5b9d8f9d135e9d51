import { containsPattern, searchWords, type Knex } from '@ticketing/platform';
import type { EventStatus } from '@ticketing/proto';
import type { CatalogEvent } from '../domain/catalog-event.ts';
import { eventColumns, toEvent, type EventRow } from './events-repository.ts';

/** An event with what only the back office sees: its status and the spots already sold. */
export interface AdminEvent {
  event: CatalogEvent;
  status: EventStatus;
  sold: number;
}

/** A listed type of the event with tickets left: within its capacity, and without lots or with a lot still selling. */
const TYPE_LEFT = `select 1 from ticket_types as types
  where types.event_id = events.id and not types.hidden
    and (types.capacity is null or types.taken < types.capacity)
    and (
      not exists (select 1 from ticket_lots as lots where lots.ticket_type_id = types.id)
      or exists (
        select 1 from ticket_lots as lots
        where lots.ticket_type_id = types.id
          and (lots.ends_at is null or lots.ends_at > now()) and (lots.quantity is null or lots.taken < lots.quantity)
      )
    )`;

/**
 * One status per event, the first that applies: cancelled; a draft; over (deactivated or its date passed); sold out
 * (every spot sold or held, or every type it lists ran out: its capacity, or every lot ended or sold); unlisted;
 * published.
 */
const STATUS = `case
  when events.cancelled_at is not null then 'cancelado'
  when events.published_at is null then 'rascunho'
  when not events.is_active or events.date <= now() then 'encerrado'
  when events.max_attendees is not null and events.current_attendees >= events.max_attendees then 'esgotado'
  when not exists (${TYPE_LEFT}) then 'esgotado'
  when not events.listed then 'nao_listado'
  else 'publicado'
end`;

/** Spots sold or given: those marked sold on open holds, and those a released hold kept (used courtesies). */
const SOLD = `coalesce((
  select sum(case when holds.released_at is null then holds.sold else holds.kept end)
  from holds where holds.event_id = events.id
), 0)::integer`;

type AdminRow = EventRow & { status: EventStatus; sold: number };

/**
 * Events with their status and sales, as a table of their own so the status can be filtered on; each of `terms`
 * must appear in the title or the location.
 */
function adminEvents(db: Knex, terms: string[] = []) {
  const events = db('events').select([...eventColumns(db), db.raw(`${STATUS} as status`), db.raw(`${SOLD} as sold`)]);
  for (const term of terms) events.whereRaw(`heading_text like ? escape '\\'`, [containsPattern(term)]);
  return db.from(events.as('events')).select('*');
}

const toAdminEvent = (row: AdminRow): AdminEvent => ({ event: toEvent(row), status: row.status, sold: row.sold });

/**
 * Every event, drafts and past ones included, newest date first; every word of `query` must appear in the title or
 * the location (accents and case aside).
 */
export async function searchAdminEvents(
  db: Knex,
  filter: { query?: string | undefined; status?: EventStatus | undefined; page: number; pageSize: number },
): Promise<{ events: AdminEvent[]; total: number }> {
  const matching = adminEvents(db, searchWords(filter.query));
  if (filter.status) matching.where({ status: filter.status });
  const [{ total }] = (await matching.clone().clearSelect().count({ total: '*' })) as [{ total: string }];
  const rows = (await matching
    .orderBy([
      { column: 'date', order: 'desc' },
      { column: 'title', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)) as AdminRow[];
  return { events: rows.map(toAdminEvent), total: Number(total) };
}

export async function findAdminEvent(db: Knex, id: string): Promise<AdminEvent | undefined> {
  const row = (await adminEvents(db).where({ id }).first()) as AdminRow | undefined;
  return row && toAdminEvent(row);
}
