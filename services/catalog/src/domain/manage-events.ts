import { conflict, notFound } from '@ticketing/platform';
import type { CreateEvent, UpdateEvent } from '@ticketing/proto';
import {
  deactivateEvent as deactivate,
  findEvent,
  findEventForUpdate,
  insertEvent,
  updateEvent as update,
  type EventChanges,
} from '../data/events-repository.ts';
import {
  announceChange,
  assertEventId,
  messages,
  parseEventDate,
  type CatalogDeps,
  type CatalogEvent,
} from './catalog-event.ts';

export async function createEvent(deps: CatalogDeps, input: CreateEvent): Promise<CatalogEvent> {
  const date = parseEventDate(input.date);
  const event = await deps.db.transaction(async (trx) => {
    const created = await insertEvent(trx, {
      title: input.title,
      description: input.description,
      date,
      location: input.location,
      price: input.price,
      imageUrl: input.imageUrl,
      maxAttendees: input.maxAttendees,
      listed: input.listed,
    });
    await announceChange(deps.outbox, trx, created);
    return created;
  });
  deps.logger.info({ eventId: event.id }, 'event created');
  return event;
}

/**
 * Changes some of an event's fields, inactive events included (so one can be reactivated). The row stays
 * locked from the check to the write, so the limit never drops below the spots already taken.
 */
export async function updateEvent(deps: CatalogDeps, id: string, input: UpdateEvent): Promise<CatalogEvent> {
  assertEventId(id);
  const { date, ...rest } = input;
  const changes: EventChanges = { ...rest, ...(date === undefined ? {} : { date: parseEventDate(date) }) };
  const event = await deps.db.transaction(async (trx) => {
    const current = await findEventForUpdate(trx, id);
    if (!current) throw notFound(messages.eventNotFound);
    const max = changes.maxAttendees;
    if (max !== undefined && max !== null && max < current.currentAttendees) {
      throw conflict(messages.maxBelowCurrent(max, current.currentAttendees));
    }
    const updated = await update(trx, current, changes);
    await announceChange(deps.outbox, trx, updated);
    return updated;
  });
  deps.logger.info({ eventId: event.id, fields: Object.keys(input) }, 'event updated');
  return event;
}

/** Takes an event off sale and out of every listing; doing it again changes nothing. */
export async function deactivateEvent(deps: CatalogDeps, id: string): Promise<CatalogEvent> {
  assertEventId(id);
  const result = await deps.db.transaction(async (trx) => {
    const deactivated = await deactivate(trx, id);
    if (deactivated) {
      await announceChange(deps.outbox, trx, deactivated);
      return { event: deactivated, changed: true };
    }
    const existing = await findEvent(trx, id);
    if (!existing) throw notFound(messages.eventNotFound);
    return { event: existing, changed: false };
  });
  if (result.changed) deps.logger.info({ eventId: id }, 'event deactivated');
  return result.event;
}
