import type { EventView } from '@ticketing/proto';
import { remainingSpots, type CatalogEvent } from '../domain/catalog-event.ts';
import type { HoldResult } from '../domain/inventory.ts';

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
  };
}

export interface HoldView {
  holdId: string;
  quantity: number;
  released: boolean;
  kept: number;
  event: EventView;
}

export function toHoldView({ hold, event }: HoldResult): HoldView {
  return {
    holdId: hold.id,
    quantity: hold.quantity,
    released: hold.releasedAt !== null,
    kept: hold.kept,
    event: toEventView(event),
  };
}
