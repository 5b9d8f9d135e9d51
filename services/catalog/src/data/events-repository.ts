import { containsPattern, searchWords, type Knex } from '@ticketing/platform';
import { EVENT_TIME_ZONE } from '@ticketing/proto';
import { randomUUID } from 'node:crypto';
import type { CatalogEvent, CatalogSession } from '../domain/catalog-event.ts';
import type { TicketLot, TicketType } from '../domain/ticket-types.ts';
import { replaceOwnedRows } from './owned-rows.ts';
import { headingTextOf, searchTextOf } from './search-text.ts';
import { replaceTicketTypes, type TicketTypePlan } from './ticket-types-repository.ts';

/** The fields of a `CatalogEvent` by their column names: the use cases never see the table's (`toEvent` maps them). */
export interface EventRow {
  id: string;
  title: string;
  description: string;
  date: Date;
  location: string;
  price: string;
  image_url: string | null;
  max_attendees: number | null;
  current_attendees: number;
  is_active: boolean;
  listed: boolean;
  published_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  max_installments: number;
  min_installment_value: string;
  created_at: Date;
  updated_at: Date;
  /** Read with the event (`SESSIONS`): instants as JSON text. */
  sessions: { id: string; startsAt: string; endsAt: string; title: string | null }[];
  /** Read with the event (`TICKET_TYPES`): instants as JSON text. */
  ticket_types: TicketTypeJson[];
}

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
type TicketTypeJson = Json<Omit<TicketType, 'lots'>> & { lots: Json<TicketLot>[] };

const COLUMNS = [
  'id',
  'title',
  'description',
  'date',
  'location',
  'price',
  'image_url',
  'max_attendees',
  'current_attendees',
  'is_active',
  'listed',
  'published_at',
  'cancelled_at',
  'cancel_reason',
  'max_installments',
  'min_installment_value',
  'created_at',
  'updated_at',
] as const;

/** The event's sessions by start, as one JSON column: a list reads them in the same query as its events. */
const SESSIONS = `coalesce((
  select json_agg(
    json_build_object('id', s.id, 'startsAt', s.starts_at, 'endsAt', s.ends_at, 'title', s.title)
    order by s.starts_at
  )
  from event_sessions s where s.event_id = events.id
), '[]'::json) as sessions`;

/** The event's ticket types by position, each with its lots by position, as one JSON column. */
const TICKET_TYPES = `coalesce((
  select json_agg(
    json_build_object(
      'id', t.id, 'name', t.name, 'price', t.price::text, 'capacity', t.capacity, 'hidden', t.hidden,
      'requiresDocument', t.requires_document, 'salesStartAt', t.sales_start_at, 'salesEndAt', t.sales_end_at,
      'taken', t.taken,
      'lots', coalesce((
        select json_agg(
          json_build_object(
            'id', l.id, 'name', l.name, 'position', l.position, 'price', l.price::text, 'endsAt', l.ends_at,
            'quantity', l.quantity, 'taken', l.taken
          )
          order by l.position
        )
        from ticket_lots l where l.ticket_type_id = t.id
      ), '[]'::json)
    )
    order by t.position
  )
  from ticket_types t where t.event_id = events.id
), '[]'::json) as ticket_types`;

/** Every column of an event, its sessions and ticket types included, for selects and `returning`. */
export const eventColumns = (db: Knex) => [...COLUMNS, db.raw(SESSIONS), db.raw(TICKET_TYPES)];

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

export function toEvent(row: EventRow): CatalogEvent {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    date: row.date,
    location: row.location,
    price: row.price,
    imageUrl: row.image_url,
    maxAttendees: row.max_attendees,
    currentAttendees: row.current_attendees,
    isActive: row.is_active,
    listed: row.listed,
    publishedAt: row.published_at,
    cancelledAt: row.cancelled_at,
    cancelReason: row.cancel_reason,
    installments: { max: row.max_installments, minValue: row.min_installment_value },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    sessions: row.sessions.map((session) => ({
      id: session.id,
      startsAt: new Date(session.startsAt),
      endsAt: new Date(session.endsAt),
      title: session.title,
    })),
    ticketTypes: row.ticket_types.map((type) => ({
      ...type,
      salesStartAt: dateOrNull(type.salesStartAt),
      salesEndAt: dateOrNull(type.salesEndAt),
      lots: type.lots.map((lot) => ({ ...lot, endsAt: dateOrNull(lot.endsAt) })),
    })),
  };
}

export type NewEvent = Pick<
  CatalogEvent,
  'title' | 'description' | 'date' | 'location' | 'price' | 'imageUrl' | 'maxAttendees' | 'listed' | 'installments'
>;

export type EventChanges = Partial<NewEvent & { isActive: boolean; publishedAt: Date | null }>;

/** A session to store: one with an `id` of the event is kept (changed in place), one without is new. */
export type SessionPlan = Omit<CatalogSession, 'id'> & { id?: string | undefined };

/** Rows of published, not cancelled events only: drafts and cancelled events stay out of the storefront, the door and sale. */
const OPEN = 'published_at is not null and cancelled_at is null';

/** Published, active, listed, not cancelled events still to come, soonest first; every word of `query` must appear (accents and case aside). */
export async function listUpcoming(db: Knex, query?: string): Promise<CatalogEvent[]> {
  const builder = db('events')
    .select(eventColumns(db))
    .where({ is_active: true, listed: true })
    .whereRaw(OPEN)
    .where('date', '>', db.fn.now());
  for (const term of searchWords(query)) builder.whereRaw(`search_text like ? escape '\\'`, [containsPattern(term)]);
  const rows = (await builder.orderBy([
    { column: 'date', order: 'asc' },
    { column: 'title', order: 'asc' },
    { column: 'id', order: 'asc' },
  ])) as EventRow[];
  return rows.map(toEvent);
}

/**
 * Published, active, not cancelled events a door may check in, listed or not: those with a session starting on today's
 * date in São Paulo (started, ended or not) first, then those with a session still to come, each group by date. Only those
 * assigned to `staffId` when given.
 */
export async function listForDoor(db: Knex, staffId?: string): Promise<{ event: CatalogEvent; today: boolean }[]> {
  const today = db.raw(
    `exists (select 1 from event_sessions s where s.event_id = events.id
      and (s.starts_at at time zone :zone)::date = (now() at time zone :zone)::date)`,
    { zone: EVENT_TIME_ZONE },
  );
  const upcoming = db.raw(
    'exists (select 1 from event_sessions s where s.event_id = events.id and s.starts_at > now())',
  );
  const rows = (await db('events')
    .select([...eventColumns(db), db.raw('? as today', [today])])
    .where({ is_active: true })
    .whereRaw(OPEN)
    .where((condition) => condition.whereRaw('?', [today]).orWhereRaw('?', [upcoming]))
    .modify((query) => {
      if (staffId) query.whereIn('id', db('door_assignments').select('event_id').where({ user_id: staffId }));
    })
    .orderByRaw('today desc, date asc, title asc, id asc')) as (EventRow & { today: boolean })[];
  return rows.map((row) => ({ event: toEvent(row), today: row.today }));
}

export async function findEvent(db: Knex, id: string): Promise<CatalogEvent | undefined> {
  const row = (await db('events').select(eventColumns(db)).where({ id }).first()) as EventRow | undefined;
  return row && toEvent(row);
}

/** Reads an event and locks its row until the transaction ends. */
export async function findEventForUpdate(trx: Knex.Transaction, id: string): Promise<CatalogEvent | undefined> {
  const row = (await trx('events').select(eventColumns(trx)).where({ id }).forUpdate().first()) as EventRow | undefined;
  return row && toEvent(row);
}

export async function hasAnyEvent(db: Knex): Promise<boolean> {
  return (await db('events').first('id')) !== undefined;
}

/** Stores a new event, published now or (`published` false) a draft, with its sessions and ticket types. */
export async function insertEvent(
  trx: Knex.Transaction,
  event: NewEvent & { published: boolean },
  sessions: SessionPlan[],
  ticketTypes: TicketTypePlan[],
): Promise<CatalogEvent> {
  const [row] = (await trx('events')
    .insert({
      title: event.title,
      description: event.description,
      date: event.date,
      location: event.location,
      price: event.price,
      image_url: event.imageUrl,
      max_attendees: event.maxAttendees,
      listed: event.listed,
      max_installments: event.installments.max,
      min_installment_value: event.installments.minValue,
      published_at: event.published ? trx.fn.now() : null,
      search_text: searchTextOf(event),
      heading_text: headingTextOf(event),
    })
    .returning('id')) as { id: string }[];
  await replaceSessions(trx, row!.id, sessions);
  await replaceTicketTypes(trx, row!.id, ticketTypes);
  return (await findEvent(trx, row!.id))!;
}

/**
 * Makes `sessions` the event's schedule: a session with an id (one of the event's, checked by the caller) changes in
 * place, keeping what refers to it; one without is added; the event's others are removed.
 */
export async function replaceSessions(trx: Knex.Transaction, eventId: string, sessions: SessionPlan[]): Promise<void> {
  const rows = sessions.map((session) => ({
    id: session.id ?? randomUUID(),
    event_id: eventId,
    starts_at: session.startsAt,
    ends_at: session.endsAt,
    title: session.title,
  }));
  await replaceOwnedRows(trx, 'event_sessions', (query) => query.where({ event_id: eventId }), rows, [
    'starts_at',
    'ends_at',
    'title',
  ]);
}

/** Applies `changes` to `current` (read under lock) and keeps the search text in step with the new values. */
export async function updateEvent(
  trx: Knex.Transaction,
  current: CatalogEvent,
  changes: EventChanges,
): Promise<CatalogEvent> {
  const next = { ...current, ...changes };
  const columns: Record<string, unknown> = {
    title: next.title,
    description: next.description,
    date: next.date,
    location: next.location,
    price: next.price,
    image_url: next.imageUrl,
    max_attendees: next.maxAttendees,
    listed: next.listed,
    max_installments: next.installments.max,
    min_installment_value: next.installments.minValue,
    is_active: next.isActive,
    published_at: next.publishedAt,
    search_text: searchTextOf(next),
    heading_text: headingTextOf(next),
    updated_at: trx.fn.now(),
  };
  const [row] = (await trx('events')
    .where({ id: current.id })
    .update(columns)
    .returning(eventColumns(trx))) as EventRow[];
  return toEvent(row!);
}

/** Deactivates an active event in one statement; undefined when it is missing or already inactive. */
export async function deactivateEvent(trx: Knex.Transaction, id: string): Promise<CatalogEvent | undefined> {
  const [row] = (await trx('events')
    .where({ id, is_active: true })
    .update({ is_active: false, updated_at: trx.fn.now() })
    .returning(eventColumns(trx))) as EventRow[];
  return row && toEvent(row);
}

/** Marks an event cancelled, with the administrator's reason. */
export function markCancelled(trx: Knex.Transaction, id: string, reason: string): Promise<CatalogEvent> {
  return updateEventRow(trx, id, { cancelled_at: trx.fn.now(), cancel_reason: reason });
}

/** Counts `quantity` more spots taken, on a row the caller's transaction locked and checked for room. */
export function addTakenSpots(trx: Knex.Transaction, id: string, quantity: number): Promise<CatalogEvent> {
  return updateEventRow(trx, id, { current_attendees: trx.raw('current_attendees + ?', [quantity]) });
}

/** Gives `quantity` spots back (the check constraint keeps the count from going below zero). */
export function returnSpots(trx: Knex.Transaction, id: string, quantity: number): Promise<CatalogEvent> {
  return updateEventRow(trx, id, { current_attendees: trx.raw('current_attendees - ?', [quantity]) });
}

/** Sets `columns` on the event's row (and its `updated_at`); the event as it is now. */
async function updateEventRow(trx: Knex.Transaction, id: string, columns: Record<string, unknown>) {
  const [row] = (await trx('events')
    .where({ id })
    .update({ ...columns, updated_at: trx.fn.now() })
    .returning(eventColumns(trx))) as EventRow[];
  return toEvent(row!);
}
