import type { Knex } from '@ticketing/platform';
import type { EventSession } from '@ticketing/proto';

/** An event as tickets shows it: at the door, in the participants' list and in a ticket sent again. */
export interface EventSnapshot {
  title: string;
  date: Date;
  location: string;
  /** As catalog announced them; null while it has not (see `sessionsOrWhole`). */
  sessions?: EventSession[] | null;
}

const columns = (eventId: string, event: EventSnapshot) => ({
  id: eventId,
  title: event.title,
  date: event.date,
  location: event.location,
  // An order's copy has none; pg would write a JavaScript array as a PostgreSQL one.
  sessions: event.sessions ? JSON.stringify(event.sessions) : null,
});

/**
 * Keeps the event as catalog announced it at `changedAt`. The one freshness rule of an event in this service: the
 * latest announcement wins, and one older than what is kept (redelivered late) changes nothing.
 */
export async function recordEventChange(
  trx: Knex.Transaction,
  eventId: string,
  event: EventSnapshot,
  changedAt: Date,
): Promise<void> {
  await trx('event_snapshots')
    .insert({ ...columns(eventId, event), changed_at: changedAt })
    .onConflict('id')
    .merge()
    .where(trx.raw('event_snapshots.changed_at is null or event_snapshots.changed_at <= excluded.changed_at'));
}

/** Keeps the copy of its event an order carried, only until catalog announces the event itself. */
export async function keepEventCopy(db: Knex, eventId: string, event: EventSnapshot): Promise<void> {
  await db('event_snapshots').insert(columns(eventId, event)).onConflict('id').ignore();
}

export async function findEventSnapshot(db: Knex, eventId: string): Promise<EventSnapshot | undefined> {
  return (await db('event_snapshots').where({ id: eventId }).first('title', 'date', 'location', 'sessions')) as
    EventSnapshot | undefined;
}
