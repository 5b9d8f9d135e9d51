import { conflict, notFound } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import type { AdminEvent } from '../data/admin-events-repository.ts';
import { findEventForUpdate, markCancelled } from '../data/events-repository.ts';
import { getAdminEvent } from './admin-events.ts';
import { messages, type CatalogDeps, type CatalogEvent } from './catalog-event.ts';

/**
 * Cancels an event that has not happened yet, for good: it leaves sale, the storefront and the door, and
 * `event.cancelled` tells orders to refund or cancel its orders and mail to tell every holder why. The row stays
 * locked from the checks to the write, so however many cancellations arrive at once, one wins and the event is
 * announced once.
 */
export async function cancelEvent(deps: CatalogDeps, id: string, reason: string): Promise<AdminEvent> {
  await deps.db.transaction(async (trx) => {
    const current = await findEventForUpdate(trx, id);
    if (!current) throw notFound(messages.eventNotFound);
    if (current.cancelledAt) throw conflict(messages.alreadyCancelled);
    if (current.date.getTime() <= Date.now()) throw conflict(messages.alreadyHappened);
    const cancelled = await markCancelled(trx, id, reason);
    await deps.outbox.add(trx, 'event.cancelled', id, cancellationOf(cancelled));
  });
  deps.logger.info({ eventId: id }, 'event cancelled');
  return getAdminEvent(deps, id);
}

function cancellationOf(event: CatalogEvent): EventPayload<'event.cancelled'> {
  return {
    eventId: event.id,
    reason: event.cancelReason!,
    cancelledAt: event.cancelledAt!.toISOString(),
    event: { title: event.title, date: event.date.toISOString(), location: event.location },
  };
}
