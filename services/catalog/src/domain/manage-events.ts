import { AppError, conflict, notFound } from '@ticketing/platform';
import { DEFAULT_INSTALLMENT_TERMS, type CreateEvent, type InstallmentTerms, type UpdateEvent } from '@ticketing/proto';
import {
  deactivateEvent as deactivate,
  findEvent,
  findEventForUpdate,
  insertEvent,
  replaceSessions,
  updateEvent as update,
  type EventChanges,
} from '../data/events-repository.ts';
import { replaceTicketTypes } from '../data/ticket-types-repository.ts';
import { announceChange, messages, type CatalogDeps, type CatalogEvent } from './catalog-event.ts';
import { editedSchedule, newSchedule } from './schedule.ts';
import { editedTicketTypes, eventPriceOf, newTicketTypes } from './ticket-type-plans.ts';

/** Changes an edit may bring; `published` publishes a draft (true) or takes one without sales back to draft (false). */
export type EventEdit = UpdateEvent & { published?: boolean };

/**
 * Creates an event, published or a draft, with its sessions (one from `date` when none are given) and its ticket
 * types (one, 'Ingresso', at `price` when none are given). The back office
 * (`futureOnly`) refuses a date already past; the API for integrations and the seed may record one.
 */
export async function createEvent(
  deps: CatalogDeps,
  input: CreateEvent,
  { futureOnly = false }: { futureOnly?: boolean } = {},
): Promise<CatalogEvent> {
  const { date, sessions } = newSchedule(input);
  const ticketTypes = newTicketTypes(input);
  if (futureOnly && date.getTime() <= Date.now()) throw new AppError(422, messages.pastDate);
  const event = await deps.db.transaction(async (trx) => {
    const created = await insertEvent(
      trx,
      {
        title: input.title,
        description: input.description,
        date,
        location: input.location,
        price: eventPriceOf(ticketTypes),
        imageUrl: input.imageUrl,
        maxAttendees: input.maxAttendees,
        listed: input.listed,
        installments: installmentTerms(DEFAULT_INSTALLMENT_TERMS, input),
        published: input.published ?? true,
      },
      sessions,
      ticketTypes,
    );
    await announceChange(deps.outbox, trx, created);
    return created;
  });
  deps.logger.info({ eventId: event.id, published: event.publishedAt !== null }, 'event created');
  return event;
}

/**
 * Changes some of an event's fields or its schedule, inactive events included (so one can be reactivated), cancelled
 * ones never. The row stays locked from the check to the write, and holds take spots by updating that row, so the
 * capacity never drops below the spots already sold or held however many holds arrive meanwhile (nor a type or lot
 * below its tickets taken); two schedules or lists of types sent at once are written one after the other, each
 * checked whole.
 */
export async function updateEvent(deps: CatalogDeps, id: string, input: EventEdit): Promise<CatalogEvent> {
  const { date, sessions, published, ticketTypes, maxInstallments, minInstallmentValue, ...rest } = input;
  const changes: EventChanges = rest;
  const event = await deps.db.transaction(async (trx) => {
    const current = await findEventForUpdate(trx, id);
    if (!current) throw notFound(messages.eventNotFound);
    if (current.cancelledAt) throw conflict(messages.editCancelled);
    const schedule = editedSchedule(current, { date, sessions });
    if (schedule) {
      changes.date = schedule.date;
      await replaceSessions(trx, id, schedule.sessions);
    }
    const types = editedTicketTypes(current, { price: rest.price, ticketTypes });
    if (types) {
      changes.price = eventPriceOf(types);
      await replaceTicketTypes(trx, id, types);
    }
    const max = changes.maxAttendees;
    if (max !== undefined && max !== null && max < current.currentAttendees) {
      throw conflict(messages.capacityBelowTaken(current.currentAttendees));
    }
    changes.installments = installmentTerms(current.installments, { maxInstallments, minInstallmentValue });
    if (published !== undefined) changes.publishedAt = publication(current, published, changes.date);
    const updated = await update(trx, current, changes);
    await announceChange(deps.outbox, trx, updated);
    return updated;
  });
  deps.logger.info({ eventId: event.id, fields: Object.keys(input) }, 'event updated');
  return event;
}

/** The installment terms `input` sets over `base`: each one it leaves out stays as it was. */
function installmentTerms(
  base: InstallmentTerms,
  input: { maxInstallments?: number | undefined; minInstallmentValue?: string | undefined },
): InstallmentTerms {
  return { max: input.maxInstallments ?? base.max, minValue: input.minInstallmentValue ?? base.minValue };
}

/** The publication date an edit leaves: kept when already published, now for a draft being published. */
function publication(current: CatalogEvent, published: boolean, newDate: Date | undefined): Date | null {
  if (!published) {
    if (current.currentAttendees > 0) throw conflict(messages.unpublishTaken);
    return null;
  }
  if (current.publishedAt) return current.publishedAt;
  if ((newDate ?? current.date).getTime() <= Date.now()) throw new AppError(422, messages.publishPast);
  return new Date();
}

/** Takes an event off sale and out of every listing; doing it again changes nothing. */
export async function deactivateEvent(deps: CatalogDeps, id: string): Promise<CatalogEvent> {
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
