import type {
  AdminEventView,
  AdminTicketTypeView,
  DoorEventView,
  EventView,
  HoldView,
  TicketTypeView,
} from '@ticketing/proto';
import type { AdminEvent } from '../data/admin-events-repository.ts';
import { isOnSale, remainingSpots, saoPauloLocal, sessionOf, type CatalogEvent } from '../domain/catalog-event.ts';
import type { HoldResult } from '../domain/holds.ts';
import {
  currentLot,
  currentPrice,
  fromPrice,
  isoSettings,
  lotName,
  typeOnSale,
  typeRemaining,
  type TicketType,
} from '../domain/ticket-types.ts';

export function toEventView(event: CatalogEvent): EventView {
  const now = Date.now();
  const onSale = isOnSale(event, now);
  const remaining = remainingSpots(event);
  return {
    id: event.id,
    title: event.title,
    description: event.description,
    date: event.date.toISOString(),
    location: event.location,
    price: fromPrice(event, onSale, remaining, now),
    imageUrl: event.imageUrl,
    maxAttendees: event.maxAttendees,
    currentAttendees: event.currentAttendees,
    remaining,
    isActive: event.isActive,
    listed: event.listed,
    onSale,
    sessions: event.sessions.map(sessionOf),
    ticketTypes: event.ticketTypes
      .filter((type) => !type.hidden)
      .map((type) => toTicketTypeView(type, onSale, remaining, now)),
    installments: event.installments,
  };
}

/** A type as buyers see it, within the event's spots left (`eventRemaining`). */
function toTicketTypeView(
  type: TicketType,
  eventOnSale: boolean,
  eventRemaining: number | null,
  now: number,
): TicketTypeView {
  const lot = currentLot(type, now);
  return {
    id: type.id,
    name: type.name,
    price: currentPrice(type, now),
    remaining: typeRemaining(type, eventRemaining, now),
    requiresDocument: type.requiresDocument,
    onSale: typeOnSale(type, eventOnSale, eventRemaining, now),
    salesStartAt: type.salesStartAt?.toISOString() ?? null,
    salesEndAt: type.salesEndAt?.toISOString() ?? null,
    currentLot: lot
      ? {
          id: lot.id,
          name: lotName(lot),
          price: lot.price,
          endsAt: lot.endsAt?.toISOString() ?? null,
          remaining: lot.quantity === null ? null : lot.quantity - lot.taken,
        }
      : null,
  };
}

/** A type as the back office edits it: hidden ones too, São Paulo times for the form, and what each part took. */
function toAdminTicketTypeView(type: TicketType): AdminTicketTypeView {
  const local = (date: Date | null) => (date === null ? null : saoPauloLocal(date));
  return {
    id: type.id,
    ...isoSettings(type),
    localSalesStartAt: local(type.salesStartAt),
    localSalesEndAt: local(type.salesEndAt),
    taken: type.taken,
    currentLotId: currentLot(type)?.id ?? null,
    lots: type.lots.map((lot) => ({
      id: lot.id,
      name: lotName(lot),
      price: lot.price,
      endsAt: lot.endsAt?.toISOString() ?? null,
      localEndsAt: local(lot.endsAt),
      quantity: lot.quantity,
      taken: lot.taken,
    })),
  };
}

export function toAdminEventView({ event, status, sold }: AdminEvent): AdminEventView {
  return {
    ...toEventView(event),
    adminTicketTypes: event.ticketTypes.map(toAdminTicketTypeView),
    status,
    published: event.publishedAt !== null,
    publishedAt: event.publishedAt?.toISOString() ?? null,
    localDate: saoPauloLocal(event.date),
    localSessions: event.sessions.map((session) => ({
      id: session.id,
      startsAt: saoPauloLocal(session.startsAt),
      endsAt: saoPauloLocal(session.endsAt),
      title: session.title,
    })),
    sold,
    held: event.currentAttendees - sold,
    cancelledAt: event.cancelledAt?.toISOString() ?? null,
    cancelReason: event.cancelReason,
    createdAt: event.createdAt.toISOString(),
    updatedAt: event.updatedAt.toISOString(),
  };
}

export function toDoorEventView({ event, today }: { event: CatalogEvent; today: boolean }): DoorEventView {
  return {
    id: event.id,
    title: event.title,
    date: event.date.toISOString(),
    location: event.location,
    listed: event.listed,
    today,
    sessions: event.sessions.map(sessionOf),
  };
}

export function toHoldView({ hold, event, lines }: HoldResult): HoldView {
  return {
    holdId: hold.id,
    quantity: hold.quantity,
    released: hold.releasedAt !== null,
    kept: hold.kept,
    lines: lines.map((line) => ({
      ticketTypeId: line.ticketTypeId,
      typeName: line.typeName,
      lotId: line.lotId,
      lotName: line.lotName,
      price: line.price,
      requiresDocument: line.requiresDocument,
    })),
    event: toEventView(event),
  };
}
