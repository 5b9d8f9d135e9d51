import { AppError, conflict, notFound, type Knex } from '@ticketing/platform';
import { ticketTypeMessages } from '@ticketing/proto';
import { addTakenSpots, findEventForUpdate } from '../data/events-repository.ts';
import { findHolds, insertHolds, type Hold } from '../data/holds-repository.ts';
import { findHoldLines, recordTakenTickets, type HoldLine } from '../data/ticket-types-repository.ts';
import { assertHoldId, isOnSale, messages, type CatalogDeps, type CatalogEvent } from './catalog-event.ts';
import { currentLot, inSaleWindow, lotName, type TicketType } from './ticket-types.ts';

export interface HoldResult {
  hold: Hold;
  event: CatalogEvent;
  /** The tickets it took, in the order asked; none for a hold of the event's spots alone. */
  lines: HoldLine[];
}

/**
 * Spots asked for under the caller's id (an order, a courtesy redemption); a provisional hold lapses unless confirmed.
 * With `items` (ticket type ids, one per spot) each spot is a ticket of that type at its current lot.
 */
export interface HoldRequest {
  eventId: string;
  holdId: string;
  quantity: number;
  provisionalSeconds?: number;
  items?: string[] | undefined;
  /** A promotional link's hold may take hidden types. */
  includeHidden?: boolean;
}

/** Requests that take spots now, by hold id, each with the count it leaves and the tickets it took. */
type Takings = Map<string, { request: HoldRequest; attendees: number; lines: HoldLine[] }>;

const REFUSALS = { cancelled: messages.cancelled, sold_out: messages.soldOut, unavailable: messages.unavailable };
type Refusal = keyof typeof REFUSALS | 'type_sold_out' | 'not_on_sale' | 'unknown_type';

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
 * spots, and the tickets it names, while there is room (all or nothing) and is answered the count it left and the
 * tickets it took.
 */
async function takeHolds(deps: CatalogDeps, eventId: string, requests: HoldRequest[]): Promise<HoldOutcome[]> {
  return deps.db.transaction(async (trx) => {
    const event = await findEventForUpdate(trx, eventId);
    const known = await findKnownHolds(trx, requests);
    const taking: Takings = new Map();
    const decided = decide(requests, event, known, taking);
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
    await recordTakenTickets(trx, new Map([...taking].map(([id, { lines }]) => [id, lines])));
    const taken = [...taking.values()].reduce((sum, { request }) => sum + request.quantity, 0);
    const after = await addTakenSpots(trx, eventId, taken);
    const leftBy = new Map([...taking].map(([id, { attendees }]) => [id, { ...after, currentAttendees: attendees }]));
    const holds = new Map(recorded.map((hold) => [hold.id, hold]));
    return decided.map((outcome, i) => {
      if (typeof outcome !== 'string') return outcome;
      const { request, lines } = taking.get(outcome)!;
      return {
        held: { hold: holds.get(outcome)!, event: leftBy.get(outcome)!, lines },
        created: request === requests[i],
      };
    });
  });
}

/** A hold recorded before, with the tickets it took. */
type KnownHold = { hold: Hold; lines: HoldLine[] };

/** The holds already recorded under the requests' ids, with their tickets, by id. */
async function findKnownHolds(trx: Knex.Transaction, requests: HoldRequest[]): Promise<Map<string, KnownHold>> {
  const holds = await findHolds(
    trx,
    requests.map((request) => request.holdId),
  );
  const lines = await findHoldLines(
    trx,
    holds.map((hold) => hold.id),
  );
  return new Map(holds.map((hold) => [hold.id, { hold, lines: lines.get(hold.id) ?? [] }]));
}

/**
 * What each request comes to, in order, against the event as locked and the holds already recorded under their ids:
 * a refusal, a hold already there, or the id of a hold taken now (added to `taking`; a repeat later in the batch
 * answers the same). The tickets of a request are counted on a copy of the event's types, so the next request of the
 * batch finds the lots as this one left them.
 */
function decide(
  requests: HoldRequest[],
  event: CatalogEvent | undefined,
  known: Map<string, KnownHold>,
  taking: Takings,
): (HoldOutcome | string)[] {
  const closed = event && closedReason(event);
  let attendees = event?.currentAttendees ?? 0;
  const stock = structuredClone(event?.ticketTypes ?? []);
  const now = Date.now();
  return requests.map((request) => {
    const hold = known.get(request.holdId);
    if (hold) return repeated(hold, request, event);
    const first = taking.get(request.holdId);
    if (first) return sameRequest(first.request, request) ? request.holdId : mismatch(first.request, request);
    if (!event) return { refused: notFound(messages.eventNotFound) };
    if (closed) return refusal(closed);
    if (event.maxAttendees !== null && attendees + request.quantity > event.maxAttendees) return refusal('sold_out');
    const lines = request.items ? takeTickets(stock, request.items, request.includeHidden ?? false, now) : [];
    if (!Array.isArray(lines)) return lines;
    attendees += request.quantity;
    taking.set(request.holdId, { request, attendees, lines });
    return request.holdId;
  });
}

/**
 * One ticket of each item's type at its current lot, in order, counted on `stock`; all of them or, refusing the
 * first that cannot be had, none. A hidden type is unknown unless the request may see it.
 */
function takeTickets(
  stock: TicketType[],
  items: string[],
  includeHidden: boolean,
  now: number,
): HoldLine[] | HoldOutcome {
  const tentative = structuredClone(stock);
  const lines: HoldLine[] = [];
  for (const typeId of items) {
    const type = tentative.find((candidate) => candidate.id === typeId);
    if (!type || (type.hidden && !includeHidden)) {
      return { refused: notFound(ticketTypeMessages.unknownType), reason: 'unknown_type' };
    }
    if (!inSaleWindow(type, now)) {
      return { refused: conflict(ticketTypeMessages.notOnSale(type.name)), reason: 'not_on_sale' };
    }
    const lot = currentLot(type, now);
    if ((type.capacity !== null && type.taken >= type.capacity) || lot === null) {
      return { refused: conflict(ticketTypeMessages.typeSoldOut(type.name)), reason: 'type_sold_out' };
    }
    type.taken += 1;
    if (lot) lot.taken += 1;
    lines.push({
      ticketTypeId: type.id,
      typeName: type.name,
      lotId: lot?.id ?? null,
      lotName: lot ? lotName(lot) : null,
      price: lot?.price ?? type.price,
      requiresDocument: type.requiresDocument,
    });
  }
  stock.splice(0, stock.length, ...tentative);
  return lines;
}

/** Two requests under one id ask for the same: the same count, and the same types when the later one names them. */
function sameRequest(first: Pick<HoldRequest, 'quantity' | 'items'>, request: HoldRequest): boolean {
  if (first.quantity !== request.quantity) return false;
  return request.items === undefined || (first.items ?? []).join() === request.items.join();
}

/** Why an event gives no spots whatever the room: cancelled, or off sale (a draft, deactivated, past). */
function closedReason(event: CatalogEvent): keyof typeof REFUSALS | undefined {
  if (event.cancelledAt) return 'cancelled';
  return isOnSale(event) ? undefined : 'unavailable';
}

const refusal = (reason: keyof typeof REFUSALS): HoldOutcome => ({ refused: conflict(REFUSALS[reason]), reason });
const mismatch = (first: Pick<HoldRequest, 'quantity'>, request: HoldRequest): HoldOutcome => ({
  refused: conflict(first.quantity === request.quantity ? messages.holdItemsMismatch : messages.holdQuantityMismatch),
});

/** The answer to a repeated hold: the same hold, with the same tickets, again, or why this id cannot mean this request. */
function repeated({ hold, lines }: KnownHold, request: HoldRequest, event: CatalogEvent | undefined): HoldOutcome {
  if (hold.eventId !== request.eventId) return { refused: conflict(messages.holdOtherEvent) };
  const first = { quantity: hold.quantity, items: lines.map((line) => line.ticketTypeId) };
  if (!sameRequest(first, request)) return mismatch(first, request);
  if (hold.releasedAt) return { refused: conflict(messages.holdReleased) };
  return { held: { hold, event: event!, lines }, created: false };
}
