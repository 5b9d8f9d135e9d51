import {
  adminCreateEventSchema,
  EVENT_IMAGE_FIELD,
  scheduleProblem,
  type AdminCreateEvent,
  type AdminEventView,
  type AdminUpdateEvent,
} from '@ticketing/proto';
import { api } from '@ticketing/shared';

/** A session as the form holds it: São Paulo's local times, as `datetime-local` inputs give them. */
export interface SessionFormValues {
  /** The stored session's, kept so its admissions stay with it; absent for a new one. */
  id?: string | undefined;
  startsAt: string;
  endsAt: string;
  title: string;
}

/** What the form holds, as typed: checked and converted by `adminCreateEventSchema` (an edit sends only the changes). */
export interface EventFormValues {
  title: string;
  description: string;
  /** Its days or blocks; the event's date is the first one's start. */
  sessions: SessionFormValues[];
  location: string;
  /** "150,00" or "150.00". */
  price: string;
  /** Empty is no limit. */
  maxAttendees: number | null;
  listed: boolean;
  published: boolean;
}
type EditableField = keyof EventFormValues;

export const NEW_SESSION: SessionFormValues = { startsAt: '', endsAt: '', title: '' };

export const NEW_EVENT: EventFormValues = {
  title: '',
  description: '',
  sessions: [NEW_SESSION],
  location: '',
  price: '',
  maxAttendees: null,
  listed: true,
  published: false,
};

/** An event as the form shows it: its sessions in São Paulo and its price with a decimal comma. */
export const formValuesOf = (event: AdminEventView): EventFormValues => ({
  title: event.title,
  description: event.description,
  sessions: event.localSessions.map((session) => ({ ...session, title: session.title ?? '' })),
  location: event.location,
  price: event.price.replace('.', ','),
  maxAttendees: event.maxAttendees,
  listed: event.listed,
  published: event.published,
});

/** São Paulo's local time as an instant: Brazil keeps UTC−03:00 all year. */
const saoPauloInstant = (local: string) => new Date(`${local}-03:00`);

/**
 * The API's checks, and the schedule's before anything is sent: sessions that overlap, last over 24 hours or end
 * before they start get the catalog's own message.
 */
export const eventFormSchema = adminCreateEventSchema.superRefine((event, context) => {
  const problem =
    event.sessions &&
    scheduleProblem(
      event.sessions.map((session) => ({
        startsAt: saoPauloInstant(session.startsAt),
        endsAt: saoPauloInstant(session.endsAt),
      })),
    );
  if (problem) context.addIssue({ code: 'custom', message: problem, path: ['sessions'] });
});

/** The same start and end a day later: a congress's next day, to adjust. */
export function nextDay(last: Pick<SessionFormValues, 'startsAt' | 'endsAt'> | undefined): SessionFormValues {
  const later = (local: string) => new Date(Date.parse(`${local}Z`) + 24 * 60 * 60 * 1000).toISOString().slice(0, 16);
  if (!last || Number.isNaN(Date.parse(`${last.startsAt}Z`)) || Number.isNaN(Date.parse(`${last.endsAt}Z`))) {
    return NEW_SESSION;
  }
  return { startsAt: later(last.startsAt), endsAt: later(last.endsAt), title: '' };
}

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
