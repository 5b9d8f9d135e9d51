import type { AdminEventView, DoorEventView, EventView, HoldView } from '@ticketing/proto';
import type { AdminEvent } from '../data/admin-events-repository.ts';
import { isOnSale, remainingSpots, saoPauloLocal, sessionOf, type CatalogEvent } from '../domain/catalog-event.ts';
import type { HoldResult } from '../domain/holds.ts';

export function toEventView(event: CatalogEvent): EventView {
  return {
    id: event.id,
    title: event.title,
    description: event.description,
    date: event.date.toISOString(),
    location: event.location,
    price: event.price,
    imageUrl: event.imageUrl,
    maxAttendees: event.maxAttendees,
    currentAttendees: event.currentAttendees,
    remaining: remainingSpots(event),
    isActive: event.isActive,
    listed: event.listed,
    onSale: isOnSale(event),
    sessions: event.sessions.map(sessionOf),
    ticketTypes: [],
  };
}

export function toAdminEventView({ event, status, sold }: AdminEvent): AdminEventView {
  return {
    ...toEventView(event),
    adminTicketTypes: [],
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

export function toHoldView({ hold, event }: HoldResult): HoldView {
  return {
    holdId: hold.id,
    quantity: hold.quantity,
    released: hold.releasedAt !== null,
    kept: hold.kept,
    lines: [],
    event: toEventView(event),
  };
}
