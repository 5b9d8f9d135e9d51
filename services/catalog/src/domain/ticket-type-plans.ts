import { badRequest, conflict } from '@ticketing/platform';
import {
  DEFAULT_TYPE_NAME,
  plainTicketType,
  ticketTypeMessages,
  ticketTypeProblems,
  type TicketTypeInput,
} from '@ticketing/proto';
import type { LotPlan, TicketTypePlan } from '../data/ticket-types-repository.ts';
import { messages, parseEventDate, type CatalogEvent } from './catalog-event.ts';
import { lotName, type TicketType } from './ticket-types.ts';

/** A new event's types: those sent, or one, 'Ingresso', at its price. */
export function newTicketTypes(input: {
  price: string;
  ticketTypes?: TicketTypeInput[] | undefined;
}): TicketTypePlan[] {
  if (!input.ticketTypes) return [plainTicketType(DEFAULT_TYPE_NAME, input.price)];
  const ids = input.ticketTypes.flatMap((type) => [type.id, ...type.lots.map((lot) => lot.id)]);
  if (ids.some((id) => id !== undefined)) throw badRequest(ticketTypeMessages.unknownType);
  return plansOf(input.ticketTypes);
}

/**
 * The types an edit leaves, or undefined when it leaves those there, checked against what they took (the event's row
 * is locked by the caller, so no hold takes a ticket meanwhile). Types sent replace the event's: those with an id
 * must be its own, and one that took tickets can neither go nor drop below what it took. A price alone changes the
 * only type of an event that has no lots; with several types or lots each one's price must be edited.
 */
export function editedTicketTypes(
  current: CatalogEvent,
  input: { price?: string | undefined; ticketTypes?: TicketTypeInput[] | undefined },
): TicketTypePlan[] | undefined {
  if (input.ticketTypes) return checkedAgainstTaken(current.ticketTypes, plansOf(input.ticketTypes));
  if (input.price === undefined || input.price === current.price) return undefined;
  const [only, ...others] = current.ticketTypes;
  if (!only || others.length > 0 || only.lots.length > 0) throw conflict(ticketTypeMessages.priceWithTypes);
  return [{ ...only, price: input.price }];
}

/** The price an event keeps beside its types: its first type's (its card shows the lowest on sale, see `fromPrice`). */
export const eventPriceOf = (plans: TicketTypePlan[]) => plans[0]!.price;

/** The types as sent, with their instants, when they make sense (see `ticketTypeProblems`). */
function plansOf(input: TicketTypeInput[]): TicketTypePlan[] {
  const time = (value: string | null) => (value === null ? null : parseEventDate(value));
  const plans = input.map((type) => ({
    ...type,
    salesStartAt: time(type.salesStartAt),
    salesEndAt: time(type.salesEndAt),
    lots: type.lots.map((lot) => ({ ...lot, endsAt: time(lot.endsAt) })),
  }));
  const [problem] = ticketTypeProblems(plans);
  if (problem) throw badRequest(problem.message);
  return plans;
}

/** The plans, when every id is the event's and nothing that took tickets goes or drops below what it took. */
function checkedAgainstTaken(types: TicketType[], plans: TicketTypePlan[]): TicketTypePlan[] {
  const byId = new Map(types.map((type) => [type.id, type]));
  const typeIds = plans.flatMap((plan) => plan.id ?? []);
  if (new Set(typeIds).size !== typeIds.length || typeIds.some((id) => !byId.has(id))) {
    throw badRequest(ticketTypeMessages.unknownType);
  }
  for (const type of types) {
    if (type.taken > 0 && !typeIds.includes(type.id)) throw conflict(ticketTypeMessages.typeSold(type.name));
  }
  for (const plan of plans) {
    const type = plan.id === undefined ? undefined : byId.get(plan.id)!;
    checkLotsAgainstTaken(type, plan.lots);
    if (type && plan.capacity !== null && plan.capacity < type.taken) {
      throw conflict(messages.capacityBelowTaken(type.taken));
    }
  }
  return plans;
}

function checkLotsAgainstTaken(type: TicketType | undefined, plans: LotPlan[]): void {
  const lots = new Map((type?.lots ?? []).map((lot) => [lot.id, lot]));
  const lotIds = plans.flatMap((plan) => plan.id ?? []);
  if (new Set(lotIds).size !== lotIds.length || lotIds.some((id) => !lots.has(id))) {
    throw badRequest(ticketTypeMessages.unknownLot);
  }
  for (const lot of lots.values()) {
    if (lot.taken > 0 && !lotIds.includes(lot.id)) throw conflict(ticketTypeMessages.lotSold(lotName(lot)));
  }
  for (const plan of plans) {
    const lot = plan.id === undefined ? undefined : lots.get(plan.id)!;
    if (lot && plan.quantity !== null && plan.quantity < lot.taken) {
      throw conflict(ticketTypeMessages.quantityBelowSold(lotName(lot)));
    }
  }
}
