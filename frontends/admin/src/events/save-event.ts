import { EVENT_IMAGE_FIELD, type AdminCreateEvent, type AdminEventView, type AdminUpdateEvent } from '@ticketing/proto';
import { api } from '@ticketing/shared';
import type { EventFormValues } from './event-form.ts';

type EditableField = keyof EventFormValues;

export const createEvent = (event: AdminCreateEvent) =>
  api<AdminEventView>('/admin/events', { method: 'POST', body: event });

/**
 * Sends only the fields the form changed, so an edit never undoes someone else's change to another field. Types sent
 * carry their prices, and the catalog refuses the event's price beside them.
 */
export function editEvent(id: string, event: AdminCreateEvent, changed: readonly EditableField[]) {
  const sent =
    changed.includes('ticketTypes') && event.ticketTypes ? changed.filter((field) => field !== 'price') : changed;
  const changes: AdminUpdateEvent = Object.fromEntries(sent.map((field) => [field, event[field]]));
  return api<AdminEventView>(`/admin/events/${id}`, { method: 'PATCH', body: changes });
}

export function uploadImage(id: string, image: File) {
  const form = new FormData();
  form.append(EVENT_IMAGE_FIELD, image);
  return api<AdminEventView>(`/admin/events/${id}/image`, { method: 'POST', body: form });
}
