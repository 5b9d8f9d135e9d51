import type { EventView, TicketTypeView } from '@ticketing/proto';
import type { Promo } from '../checkout/types.ts';
// The formatters alone, without the UI: this module is read by the page and by plain unit tests.
import { formatDayMonth } from '@ticketing/shared/format';

/**
 * The one type the catalog gives an event created without types (proto's `DEFAULT_TYPE_NAME`), written here: a value
 * read from the contracts would bring their schemas into the home page's bundle.
 */
const DEFAULT_TYPE_NAME = 'Ingresso';

/** At or under this many tickets left, a type says how many: 'Restam 12'. */
export const FEW_LEFT = 20;

/**
 * Whether the event page lists its ticket types. An event selling one plain ticket (the catalog's 'Ingresso', without
 * lots, document or sale window) shows its price alone, as the spec's page does.
 */
export function listsTicketTypes(event: Pick<EventView, 'ticketTypes'>): boolean {
  const [only, ...others] = event.ticketTypes;
  if (!only) return false;
  return (
    others.length > 0 ||
    only.name !== DEFAULT_TYPE_NAME ||
    only.currentLot !== null ||
    only.requiresDocument ||
    only.salesStartAt !== null ||
    only.salesEndAt !== null
  );
}

/** '1º lote · até 15/01 ou enquanto durar': the lot a type sells at now and what ends it; null without lots. */
export function lotLabel(type: Pick<TicketTypeView, 'currentLot'>): string | null {
  const lot = type.currentLot;
  if (!lot) return null;
  const ends = [lot.endsAt && `até ${formatDayMonth(lot.endsAt)}`, lot.remaining !== null && 'enquanto durar']
    .filter(Boolean)
    .join(' ou ');
  return ends ? `${lot.name} · ${ends}` : lot.name;
}

/** 'Restam 12' when few tickets of the type (or of its current lot) are left; null otherwise. */
export function fewLeftLabel(type: Pick<TicketTypeView, 'onSale' | 'remaining' | 'currentLot'>): string | null {
  if (!type.onSale) return null;
  const counts = [type.remaining, type.currentLot?.remaining ?? null].filter((count) => count !== null);
  if (counts.length === 0) return null;
  const left = Math.min(...counts);
  if (left < 1 || left > FEW_LEFT) return null;
  return left === 1 ? 'Resta 1' : `Restam ${left}`;
}

/** Why a type cannot be bought now: 'Esgotado', 'Vendas a partir de 15/01' or 'Vendas encerradas'; null on sale. */
export function offSaleLabel(
  type: Pick<TicketTypeView, 'onSale' | 'remaining' | 'salesStartAt'>,
  now = Date.now(),
): string | null {
  if (type.onSale) return null;
  if (type.remaining === 0) return 'Esgotado';
  if (type.salesStartAt && Date.parse(type.salesStartAt) > now) {
    return `Vendas a partir de ${formatDayMonth(type.salesStartAt)}`;
  }
  return 'Vendas encerradas';
}

/** The types a buyer may choose now, in the organiser's order. */
export const typesOnSale = (event: Pick<EventView, 'ticketTypes'>) => event.ticketTypes.filter((type) => type.onSale);

/**
 * What the buy button says when none of the event's types can be bought although the event is on sale: every one
 * sold out ('Evento Esgotado'), or the earliest sale still to open ('Vendas a partir de 15/01'); null otherwise.
 */
export function closedTypesLabel(event: Pick<EventView, 'ticketTypes'>, now = Date.now()): string | null {
  if (event.ticketTypes.length === 0 || typesOnSale(event).length > 0) return null;
  if (event.ticketTypes.every((type) => type.remaining === 0)) return 'Evento Esgotado';
  const opening = event.ticketTypes
    .map((type) => type.salesStartAt)
    .filter((start): start is string => start !== null && Date.parse(start) > now)
    .sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  return opening ? `Vendas a partir de ${formatDayMonth(opening)}` : 'Vendas encerradas';
}

/**
 * The event as a promotional code sells it: the type its link names alone (a hidden one, which the event does not
 * list, at the code's price), or every type for a link that names none.
 */
export function promoEvent(event: EventView, promo: Promo | null): EventView {
  if (!promo?.ticketType) return event;
  const named = promo.ticketType;
  const listed = event.ticketTypes.find((type) => type.id === named.id);
  const hidden: TicketTypeView = {
    ...named,
    price: promo.price,
    remaining: null,
    requiresDocument: false,
    onSale: true,
    salesStartAt: null,
    salesEndAt: null,
    currentLot: null,
  };
  return { ...event, ticketTypes: [listed ?? hidden] };
}
