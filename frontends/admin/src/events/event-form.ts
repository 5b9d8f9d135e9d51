import { EVENT_IMAGE_FIELD, type AdminCreateEvent, type AdminEventView, type AdminUpdateEvent } from '@ticketing/proto';
import { api } from '@ticketing/shared';

/** What the form holds, as typed: checked and converted by `adminCreateEventSchema` (an edit sends only the changes). */
export interface EventFormValues {
  title: string;
  description: string;
  /** São Paulo's local time, as a `datetime-local` input gives it ("2030-03-15T09:00"). */
  date: string;
  location: string;
  /** "150,00" or "150.00". */
  price: string;
  /** Empty is no limit. */
  maxAttendees: number | null;
  listed: boolean;
  published: boolean;
}
type EditableField = keyof EventFormValues;

export const NEW_EVENT: EventFormValues = {
  title: '',
  description: '',
  date: '',
  location: '',
  price: '',
  maxAttendees: null,
  listed: true,
  published: false,
};

/** An event as the form shows it: its date in São Paulo and its price with a decimal comma. */
export const formValuesOf = (event: AdminEventView): EventFormValues => ({
  title: event.title,
  description: event.description,
  date: event.localDate,
  location: event.location,
  price: event.price.replace('.', ','),
  maxAttendees: event.maxAttendees,
  listed: event.listed,
  published: event.published,
});

/** An empty capacity is no limit (null). */
export const typedCapacity = (typed: unknown): number | null =>
  typed === '' || typed === null || typed === undefined ? null : Number(typed);

export const createEvent = (event: AdminCreateEvent) =>
  api<AdminEventView>('/admin/events', { method: 'POST', body: event });

/** Sends only the fields the form changed, so an edit never undoes someone else's change to another field. */
export function editEvent(id: string, event: AdminCreateEvent, changed: readonly EditableField[]) {
  const changes: AdminUpdateEvent = Object.fromEntries(changed.map((field) => [field, event[field]]));
  return api<AdminEventView>(`/admin/events/${id}`, { method: 'PATCH', body: changes });
}

export function uploadImage(id: string, image: File) {
  const form = new FormData();
  form.append(EVENT_IMAGE_FIELD, image);
  return api<AdminEventView>(`/admin/events/${id}/image`, { method: 'POST', body: form });
}
