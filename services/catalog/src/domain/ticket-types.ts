import { fromCents, toCents, type TicketTypeSettings } from '@ticketing/proto';

/** What an event sells: a kind of ticket at its price, or in lots whose price steps up. */
export interface TicketType extends TicketTypeSettings<Date> {
  id: string;
  /** Tickets held and sold, not given back. */
  taken: number;
  /** By position: each sells until its date (`endsAt`) or its `quantity`, whichever comes first. */
  lots: TicketLot[];
}

export interface TicketLot {
  id: string;
  /** As entered; null: named by its place ('1º lote'). */
  name: string | null;
  /** Its place among the type's lots, from 0. */
  position: number;
  price: string;
  endsAt: Date | null;
  quantity: number | null;
  taken: number;
}

/** A type's own settings, its sale window as ISO 8601 instants, as the API writes them. */
export const isoSettings = (type: TicketType): TicketTypeSettings<string> => ({
  name: type.name,
  price: type.price,
  capacity: type.capacity,
  hidden: type.hidden,
  requiresDocument: type.requiresDocument,
  salesStartAt: type.salesStartAt?.toISOString() ?? null,
  salesEndAt: type.salesEndAt?.toISOString() ?? null,
});

/** A lot's name: its own, or its place ('1º lote', '2º lote'). */
export const lotName = (lot: Pick<TicketLot, 'name' | 'position'>) => lot.name ?? `${lot.position + 1}º lote`;

const lotOpen = (lot: TicketLot, now: number) =>
  (lot.endsAt === null || lot.endsAt.getTime() > now) && (lot.quantity === null || lot.taken < lot.quantity);

/**
 * The lot a type sells at now: the first not ended by its date with tickets left; undefined for a type without lots,
 * null once every lot ended or sold out (the type is then sold out).
 */
export function currentLot(type: TicketType, now = Date.now()): TicketLot | null | undefined {
  if (type.lots.length === 0) return undefined;
  return type.lots.find((lot) => lotOpen(lot, now)) ?? null;
}

/** What a ticket of the type costs now: its current lot's price, or the type's. */
export const currentPrice = (type: TicketType, now = Date.now()) => currentLot(type, now)?.price ?? type.price;

/**
 * Tickets of a type left: the least of its capacity left, its lots' left (when each lot still to sell has a
 * quantity) and the event's spots left (`eventRemaining`); null when nothing limits it.
 */
export function typeRemaining(type: TicketType, eventRemaining: number | null, now = Date.now()): number | null {
  const limits = [eventRemaining];
  if (type.capacity !== null) limits.push(Math.max(0, type.capacity - type.taken));
  if (type.lots.length > 0) limits.push(lotsRemaining(type.lots, now));
  const known = limits.filter((limit) => limit !== null);
  return known.length === 0 ? null : Math.min(...known);
}

function lotsRemaining(lots: TicketLot[], now: number): number | null {
  const selling = lots.filter((lot) => lotOpen(lot, now));
  if (selling.some((lot) => lot.quantity === null)) return null;
  return selling.reduce((sum, lot) => sum + lot.quantity! - lot.taken, 0);
}

/** Within its sale window. */
export const inSaleWindow = (type: TicketType, now = Date.now()) =>
  (type.salesStartAt === null || type.salesStartAt.getTime() <= now) &&
  (type.salesEndAt === null || type.salesEndAt.getTime() > now);

/** Sold now: the event on sale, the type within its window, with tickets left. */
export const typeOnSale = (type: TicketType, eventOnSale: boolean, eventRemaining: number | null, now = Date.now()) =>
  eventOnSale && inSaleWindow(type, now) && typeRemaining(type, eventRemaining, now) !== 0;

/**
 * The price an event shows on its card ("a partir de"): the lowest current price of its visible types on sale,
 * else its first visible type's; the event's own price when it shows none.
 */
export function fromPrice(
  event: { price: string; ticketTypes: TicketType[] },
  eventOnSale: boolean,
  eventRemaining: number | null,
  now = Date.now(),
): string {
  const visible = event.ticketTypes.filter((type) => !type.hidden);
  const selling = visible.filter((type) => typeOnSale(type, eventOnSale, eventRemaining, now));
  if (selling.length === 0) return visible[0] ? currentPrice(visible[0], now) : event.price;
  return fromCents(Math.min(...selling.map((type) => toCents(currentPrice(type, now)))));
}
