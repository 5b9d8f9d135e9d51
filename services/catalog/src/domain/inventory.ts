import { conflict, notFound } from '@ticketing/platform';
import { findEvent, returnSpots, takeSpots } from '../data/events-repository.ts';
import {
  findHold,
  insertHold,
  releaseHold as markReleased,
  releaseHoldsUnder,
  type Hold,
} from '../data/holds-repository.ts';
import {
  announceChange,
  assertEventId,
  assertHoldId,
  messages,
  type CatalogDeps,
  type CatalogEvent,
} from './catalog-event.ts';

export interface HoldResult {
  hold: Hold;
  event: CatalogEvent;
}

/**
 * Holds `quantity` spots of an event under the caller's id (an order, a courtesy redemption). The spots are
 * taken by one conditional statement in the transaction that records the hold. Repeating a hold answers what
 * the first one did without counting twice.
 */
export async function holdSpots(
  deps: CatalogDeps,
  request: { eventId: string; holdId: string; quantity: number },
): Promise<HoldResult> {
  const { eventId, holdId, quantity } = request;
  assertEventId(eventId);
  assertHoldId(holdId);
  const result = await deps.db.transaction(async (trx) => {
    const inserted = await insertHold(trx, { id: holdId, eventId, quantity });
    if (!inserted) return { ...(await existingHold(trx, request)), created: false };
    const event = await takeSpots(trx, eventId, quantity);
    if (!event) {
      const reason = refusalOf((await findEvent(trx, eventId))!);
      deps.logger.info({ eventId, holdId, quantity, reason }, 'hold refused');
      throw conflict(REFUSALS[reason]);
    }
    await announceChange(deps.outbox, trx, event);
    return { hold: (await findHold(trx, holdId))!, event, created: true };
  });
  if (result.created) deps.logger.info({ eventId, holdId, quantity }, 'spots held');
  return { hold: result.hold, event: result.event };
}

const REFUSALS = { cancelled: messages.cancelled, sold_out: messages.soldOut, unavailable: messages.unavailable };

/** Why an event gave no spots: cancelled, or off sale (a draft, deactivated, past), or else full. */
function refusalOf(event: CatalogEvent): keyof typeof REFUSALS {
  if (event.cancelledAt) return 'cancelled';
  const open = event.publishedAt !== null && event.isActive && event.date.getTime() > Date.now();
  return open ? 'sold_out' : 'unavailable';
}

/** The answer to a repeated hold: the same hold again, or why this id cannot mean this request. */
async function existingHold(
  db: CatalogDeps['db'],
  request: { eventId: string; holdId: string; quantity: number },
): Promise<HoldResult> {
  const hold = await findHold(db, request.holdId);
  if (!hold) throw notFound(messages.eventNotFound);
  if (hold.eventId !== request.eventId) throw conflict(messages.holdOtherEvent);
  if (hold.quantity !== request.quantity) throw conflict(messages.holdQuantityMismatch);
  if (hold.releasedAt) throw conflict(messages.holdReleased);
  return { hold, event: (await findEvent(db, hold.eventId))! };
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
  assertEventId(eventId);
  assertHoldId(holdId);
  const result = await deps.db.transaction(async (trx) => {
    const released = await markReleased(trx, holdId, eventId, keep);
    if (released) {
      const event = await returnSpots(trx, eventId, released.quantity - keep);
      await announceChange(deps.outbox, trx, event);
      return { hold: released, event, changed: true };
    }
    const hold = await findHold(trx, holdId);
    if (!hold || hold.eventId !== eventId) throw notFound(messages.holdNotFound);
    if (!hold.releasedAt) throw conflict(messages.keepAboveQuantity);
    return { hold, event: (await findEvent(trx, eventId))!, changed: false };
  });
  if (result.changed) deps.logger.info({ eventId, holdId, quantity: result.hold.quantity, keep }, 'hold released');
  return { hold: result.hold, event: result.event };
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
    if (spots > 0) await announceChange(deps.outbox, trx, await returnSpots(trx, eventId, spots));
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
