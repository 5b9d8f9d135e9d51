import { AppError, conflict, notFound } from '@ticketing/platform';
import { addTakenSpots, findEventForUpdate } from '../data/events-repository.ts';
import { findHolds, insertHolds, type Hold } from '../data/holds-repository.ts';
import { assertHoldId, isOnSale, messages, type CatalogDeps, type CatalogEvent } from './catalog-event.ts';

export interface HoldResult {
  hold: Hold;
  event: CatalogEvent;
}

/** Spots asked for under the caller's id (an order, a courtesy redemption); a provisional hold lapses unless confirmed. */
export interface HoldRequest {
  eventId: string;
  holdId: string;
  quantity: number;
  provisionalSeconds?: number;
}

/** Requests that take spots now, by hold id, each with the count it leaves. */
type Takings = Map<string, { request: HoldRequest; attendees: number }>;

const REFUSALS = { cancelled: messages.cancelled, sold_out: messages.soldOut, unavailable: messages.unavailable };
type Refusal = keyof typeof REFUSALS;

/** What one request of a batch came to: spots held now, the hold it repeats, or why not. */
type HoldOutcome = { held: HoldResult; created: boolean } | { refused: AppError; reason?: Refusal };

/**
 * Holds `quantity` spots of an event under the caller's id. Repeating a hold answers what the first one did without
 * counting twice; a hold beyond the spots left takes none.
 */
export async function holdSpots(deps: CatalogDeps, request: HoldRequest): Promise<HoldResult> {
  assertHoldRequest(request);
  const [outcome] = await takeHolds(deps, request.eventId, [request]);
  return settle(deps, request, outcome!);
}

/**
 * Takes the holds of the requests that wait for one event, a batch at a time: those arriving while a batch is being
 * written go together in the next one, in one transaction holding the event's row for all of them. Through a sales
 * rush the row's lock and the commit's disk flush are then taken once a batch instead of once a buyer, each of them
 * queueing behind the others.
 */
export function createHoldQueue(deps: CatalogDeps, maxBatch = 100) {
  interface Waiting {
    request: HoldRequest;
    answer(outcome: HoldOutcome): void;
    fail(error: unknown): void;
  }
  const queues = new Map<string, Waiting[]>();

  async function drain(eventId: string, queue: Waiting[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const outcomes = await takeHolds(
          deps,
          eventId,
          batch.map((waiting) => waiting.request),
        );
        batch.forEach((waiting, i) => waiting.answer(outcomes[i]!));
      } catch (error) {
        for (const waiting of batch) waiting.fail(error);
      }
    }
    queues.delete(eventId);
  }

  return async function hold(request: HoldRequest): Promise<HoldResult> {
    assertHoldRequest(request);
    const outcome = await new Promise<HoldOutcome>((answer, fail) => {
      const waiting: Waiting = { request, answer, fail };
      const queue = queues.get(request.eventId);
      if (queue) return void queue.push(waiting);
      const started = [waiting];
      queues.set(request.eventId, started);
      void drain(request.eventId, started);
    });
    return settle(deps, request, outcome);
  };
}

function assertHoldRequest(request: HoldRequest): void {
  assertHoldId(request.holdId);
}

/** The request's answer, logged where the request is handled. */
function settle(deps: CatalogDeps, request: HoldRequest, outcome: HoldOutcome): HoldResult {
  const { eventId, holdId, quantity } = request;
  if ('refused' in outcome) {
    if (outcome.reason) deps.logger.info({ eventId, holdId, quantity, reason: outcome.reason }, 'hold refused');
    throw outcome.refused;
  }
  if (outcome.created) {
    deps.logger.info(
      { eventId, holdId, quantity, provisional: request.provisionalSeconds !== undefined },
      'spots held',
    );
  }
  return outcome.held;
}

/**
 * One transaction for several requests of one event, in their order, with the event's row locked: each takes its
 * spots while there is room (all or nothing) and is answered the count it left.
 */
async function takeHolds(deps: CatalogDeps, eventId: string, requests: HoldRequest[]): Promise<HoldOutcome[]> {
  return deps.db.transaction(async (trx) => {
    const event = await findEventForUpdate(trx, eventId);
    const known = await findHolds(
      trx,
      requests.map((request) => request.holdId),
    );
    const taking: Takings = new Map();
    const decided = decide(requests, event, new Map(known.map((hold) => [hold.id, hold])), taking);
    if (taking.size === 0) return decided as HoldOutcome[];

    const recorded = await insertHolds(
      trx,
      eventId,
      [...taking.values()].map(({ request }) => ({
        id: request.holdId,
        quantity: request.quantity,
        provisionalSeconds: request.provisionalSeconds ?? null,
      })),
    );
    // Only another event's hold taking one of these ids since they were looked for leaves one out: the batch is then
    // refused whole rather than counted wrong.
    if (recorded.length !== taking.size) throw new Error(`hold ids of event ${eventId} taken meanwhile`);
    const taken = [...taking.values()].reduce((sum, { request }) => sum + request.quantity, 0);
    const after = await addTakenSpots(trx, eventId, taken);
    const leftBy = new Map([...taking].map(([id, { attendees }]) => [id, { ...after, currentAttendees: attendees }]));
    const holds = new Map(recorded.map((hold) => [hold.id, hold]));
    return decided.map((outcome, i) => {
      if (typeof outcome !== 'string') return outcome;
      const created = taking.get(outcome)!.request === requests[i];
      return { held: { hold: holds.get(outcome)!, event: leftBy.get(outcome)! }, created };
    });
  });
}

/**
 * What each request comes to, in order, against the event as locked and the holds already recorded under their ids:
 * a refusal, a hold already there, or the id of a hold taken now (added to `taking`; a repeat later in the batch
 * answers the same).
 */
function decide(
  requests: HoldRequest[],
  event: CatalogEvent | undefined,
  known: Map<string, Hold>,
  taking: Takings,
): (HoldOutcome | string)[] {
  const closed = event && closedReason(event);
  let attendees = event?.currentAttendees ?? 0;
  return requests.map((request) => {
    const hold = known.get(request.holdId);
    if (hold) return repeated(hold, request, event);
    const first = taking.get(request.holdId);
    if (first) return first.request.quantity === request.quantity ? request.holdId : mismatch();
    if (!event) return { refused: notFound(messages.eventNotFound) };
    if (closed) return refusal(closed);
    if (event.maxAttendees !== null && attendees + request.quantity > event.maxAttendees) return refusal('sold_out');
    attendees += request.quantity;
    taking.set(request.holdId, { request, attendees });
    return request.holdId;
  });
}

/** Why an event gives no spots whatever the room: cancelled, or off sale (a draft, deactivated, past). */
function closedReason(event: CatalogEvent): Refusal | undefined {
  if (event.cancelledAt) return 'cancelled';
  return isOnSale(event) ? undefined : 'unavailable';
}

const refusal = (reason: Refusal): HoldOutcome => ({ refused: conflict(REFUSALS[reason]), reason });
const mismatch = (): HoldOutcome => ({ refused: conflict(messages.holdQuantityMismatch) });

/** The answer to a repeated hold: the same hold again, or why this id cannot mean this request. */
function repeated(hold: Hold, request: HoldRequest, event: CatalogEvent | undefined): HoldOutcome {
  if (hold.eventId !== request.eventId) return { refused: conflict(messages.holdOtherEvent) };
  if (hold.quantity !== request.quantity) return mismatch();
  if (hold.releasedAt) return { refused: conflict(messages.holdReleased) };
  return { held: { hold, event: event! }, created: false };
}
