import { conflict, notFound } from '@ticketing/platform';
import { findEvent, returnSpots } from '../data/events-repository.ts';
import {
  confirmHold as markConfirmed,
  findHold,
  releaseHold as markReleased,
  releaseHoldsUnder,
  releaseLapsedHolds,
} from '../data/holds-repository.ts';
import { findHoldLines, returnTakenTickets } from '../data/ticket-types-repository.ts';
import { assertHoldId, messages, type CatalogDeps } from './catalog-event.ts';
import type { HoldResult } from './holds.ts';

/** Keeps a provisional hold until it is released like any other; confirming it again changes nothing. */
export async function confirmHold(deps: CatalogDeps, request: { eventId: string; holdId: string }): Promise<void> {
  const { eventId, holdId } = request;
  assertHoldId(holdId);
  if (await markConfirmed(deps.db, holdId, eventId)) return;
  const hold = await findHold(deps.db, holdId);
  if (!hold || hold.eventId !== eventId) throw notFound(messages.holdNotFound);
  throw conflict(messages.holdReleased);
}

const LAPSED_BATCH = 100;

/**
 * Gives back the spots of provisional holds whose order never confirmed them, a batch per transaction, each event's
 * count returned once a batch. Answers how many holds lapsed.
 */
export async function giveBackLapsedHolds(deps: CatalogDeps): Promise<number> {
  let lapsed = 0;
  for (;;) {
    const holds = await deps.db.transaction(async (trx) => {
      const released = await releaseLapsedHolds(trx, LAPSED_BATCH);
      const spotsByEvent = new Map<string, number>();
      for (const hold of released)
        spotsByEvent.set(hold.eventId, (spotsByEvent.get(hold.eventId) ?? 0) + hold.quantity);
      for (const [eventId, spots] of spotsByEvent) await returnSpots(trx, eventId, spots);
      await returnTakenTickets(
        trx,
        released.map((hold) => hold.id),
      );
      return released;
    });
    if (holds.length > 0) deps.logger.warn({ holds: holds.map((hold) => hold.id) }, 'provisional holds lapsed');
    lapsed += holds.length;
    if (holds.length < LAPSED_BATCH) return lapsed;
  }
}

/**
 * Gives a hold's spots back to the event, but `keep` of them (spots already given to someone); releasing it again
 * changes nothing and answers the same.
 */
export async function releaseHold(
  deps: CatalogDeps,
  request: { eventId: string; holdId: string; keep?: number },
): Promise<HoldResult> {
  const { eventId, holdId, keep = 0 } = request;
  assertHoldId(holdId);
  const result = await deps.db.transaction(async (trx) => {
    const released = await markReleased(trx, holdId, eventId, keep);
    const lines = (await findHoldLines(trx, [holdId])).get(holdId) ?? [];
    if (released) {
      // The event's row first, as a hold takes them: the two never wait on each other's locks.
      await returnSpots(trx, eventId, released.quantity - keep);
      await returnTakenTickets(trx, [holdId], keep);
      const event = (await findEvent(trx, eventId))!;
      return { hold: released, event, lines, changed: true };
    }
    const hold = await findHold(trx, holdId);
    if (!hold || hold.eventId !== eventId) throw notFound(messages.holdNotFound);
    if (!hold.releasedAt) throw conflict(messages.keepAboveQuantity);
    return { hold, event: (await findEvent(trx, eventId))!, lines, changed: false };
  });
  if (result.changed) deps.logger.info({ eventId, holdId, quantity: result.hold.quantity, keep }, 'hold released');
  return { hold: result.hold, event: result.event, lines: result.lines };
}

/**
 * Gives back every spot an order still holds: its own hold and any taken again under it (a late payment's). The
 * spots return with one conditional statement per hold, so a repeated or concurrent call gives nothing back twice.
 * Answers how many spots came back.
 */
export async function releaseOrderSpots(
  deps: CatalogDeps,
  request: { eventId: string; holdId: string },
): Promise<number> {
  const { eventId, holdId } = request;
  const released = await deps.db.transaction(async (trx) => {
    const holds = await releaseHoldsUnder(trx, holdId, eventId);
    const spots = holds.reduce((sum, hold) => sum + hold.quantity, 0);
    if (spots > 0) await returnSpots(trx, eventId, spots);
    await returnTakenTickets(
      trx,
      holds.map((hold) => hold.id),
    );
    return { holds, spots };
  });
  if (released.spots > 0) {
    deps.logger.info(
      { eventId, holds: released.holds.map((hold) => hold.id), spots: released.spots },
      'holds released',
    );
  }
  return released.spots;
}
