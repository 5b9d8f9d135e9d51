import {
  DEFAULT_TYPE_NAME,
  plainTicketType,
  type AdminTicketTypeView,
  type TicketTypeSettings,
} from '@ticketing/proto';

/** A lot as the form holds it: its end in São Paulo's local time, as `datetime-local` gives it; null when none. */
export interface LotFormValues {
  /** The stored lot's, kept so what it sold stays with it; absent for a new one. */
  id?: string | undefined;
  /** Empty: the catalog names it by its place ('2º lote'). */
  name: string;
  price: string;
  endsAt: string | null;
  quantity: number | null;
}

/**
 * A ticket type as the form holds it, its sale window in São Paulo's local time; with lots, its price follows its first
 * lot's.
 */
export interface TicketTypeFormValues extends TicketTypeSettings<string> {
  id?: string | undefined;
  lots: LotFormValues[];
}

/** The most the catalog takes (`ticketTypeList`, `ticketTypeInput`). */
export const MAX_TYPES = 20;
export const MAX_LOTS = 10;

export const NEW_LOT: LotFormValues = { name: '', price: '', endsAt: null, quantity: null };

export const NEW_TICKET_TYPE: TicketTypeFormValues = plainTicketType('', '');

const commaPrice = (price: string) => price.replace('.', ',');

/** The name the catalog gives a lot without one, by its place ('2º lote'). */
export const placeName = (index: number) => `${index + 1}º lote`;

/** An event that sells only 'Ingresso' at its price, with nothing else set: its form shows the price alone. */
export function isPlainDefault(types: readonly AdminTicketTypeView[]): boolean {
  if (types.length === 0) return true;
  const [type] = types;
  return (
    types.length === 1 &&
    type!.name === DEFAULT_TYPE_NAME &&
    !type!.hidden &&
    !type!.requiresDocument &&
    type!.capacity === null &&
    type!.salesStartAt === null &&
    type!.salesEndAt === null &&
    type!.lots.length === 0
  );
}

/** The types as the form edits them, in their order; undefined for a plain event, whose price field stands for them. */
export function ticketTypeValuesOf(types: readonly AdminTicketTypeView[]): TicketTypeFormValues[] | undefined {
  if (isPlainDefault(types)) return undefined;
  return types.map((type) => ({
    id: type.id,
    name: type.name,
    price: commaPrice(type.price),
    capacity: type.capacity,
    hidden: type.hidden,
    requiresDocument: type.requiresDocument,
    salesStartAt: type.localSalesStartAt,
    salesEndAt: type.localSalesEndAt,
    lots: type.lots.map((lot, index) => ({
      id: lot.id,
      // A lot named by its place stays so: moved, it takes its new place's name.
      name: lot.name === placeName(index) ? '' : lot.name,
      price: commaPrice(lot.price),
      endsAt: lot.localEndsAt,
      quantity: lot.quantity,
    })),
  }));
}

/**
 * The list a plain event opens to when the admin adds a type: its one type (kept by its id) at the price typed,
 * and a new one to fill in.
 */
export function openedTypes(types: readonly AdminTicketTypeView[], price: string | number): TicketTypeFormValues[] {
  const plain = types[0];
  const first = { ...NEW_TICKET_TYPE, ...(plain && { id: plain.id }), name: DEFAULT_TYPE_NAME, price: String(price) };
  return [first, NEW_TICKET_TYPE];
}

/** What a type sells at first, as typed: its first lot's price, or its own without lots. */
export const firstPrice = (type: { price: string | number; lots?: { price: string | number }[] | undefined }) =>
  String(type.lots?.[0]?.price ?? type.price);
