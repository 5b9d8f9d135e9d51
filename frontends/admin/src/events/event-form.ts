import { z } from 'zod';
import {
  adminCreateEventSchema,
  DEFAULT_INSTALLMENT_TERMS,
  scheduleProblem,
  ticketTypeMessages,
  ticketTypeProblems,
  type AdminEventView,
  type InstallmentTerms,
} from '@ticketing/proto';
import type { useZodForm } from '@ticketing/shared/forms';
import { MAX_TYPES, ticketTypeValuesOf, type TicketTypeFormValues } from './ticket-types.ts';

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
  /** "150,00" or "150.00": the price of its one type; with types, their first's. */
  price: string;
  /** Empty while the event sells one plain 'Ingresso' at `price` (none sent); else sent whole, each by its id. */
  ticketTypes: TicketTypeFormValues[];
  /** Empty is no limit. */
  maxAttendees: number | null;
  listed: boolean;
  published: boolean;
  /** Card installments: at most this many (1: à vista), each at least `minInstallmentValue` ("5,00"). */
  maxInstallments: number;
  minInstallmentValue: string;
}

/** An event's installment terms as the form shows them, the minimum with a decimal comma. */
const installmentValuesOf = (terms: InstallmentTerms) => ({
  maxInstallments: terms.max,
  minInstallmentValue: terms.minValue.replace('.', ','),
});

export const NEW_SESSION: SessionFormValues = { startsAt: '', endsAt: '', title: '' };

export const NEW_EVENT: EventFormValues = {
  title: '',
  description: '',
  sessions: [NEW_SESSION],
  location: '',
  price: '',
  ticketTypes: [],
  maxAttendees: null,
  listed: true,
  published: false,
  ...installmentValuesOf(DEFAULT_INSTALLMENT_TERMS),
};

/** An event as the form shows it: its sessions in São Paulo and its price with a decimal comma. */
export const formValuesOf = (event: AdminEventView): EventFormValues => ({
  title: event.title,
  description: event.description,
  sessions: event.localSessions.map((session) => ({ ...session, title: session.title ?? '' })),
  location: event.location,
  price: event.price.replace('.', ','),
  ticketTypes: ticketTypeValuesOf(event.adminTicketTypes) ?? [],
  maxAttendees: event.maxAttendees,
  listed: event.listed,
  published: event.published,
  // An answer that does not tell the terms reads as the catalog's default: à vista.
  ...installmentValuesOf(event.installments ?? DEFAULT_INSTALLMENT_TERMS),
});

/** A São Paulo local time ("2030-03-15T09:00") or an instant with its offset, as an instant: Brazil keeps UTC−03:00. */
const instant = (time: string) => new Date(/(Z|[+-]\d{2}:\d{2})$/.test(time) ? time : `${time}-03:00`);
const instantOrNull = (time: string | null) => (time === null ? null : instant(time));

/**
 * The API's checks, and the schedule's and the types' before anything is sent: sessions that overlap, last over 24
 * hours or end before they start, and types or lots the catalog would refuse get the catalog's own message.
 */
export const eventFormSchema = adminCreateEventSchema
  .safeExtend({
    // No types is the plain event: its price stands for its one type, and no list is sent.
    ticketTypes: z
      .array(adminCreateEventSchema.shape.ticketTypes.unwrap().element)
      .max(MAX_TYPES, ticketTypeMessages.tooMany)
      .optional()
      .transform((types) => (types?.length ? types : undefined)),
  })
  .superRefine((event, context) => {
    const problem =
      event.sessions &&
      scheduleProblem(
        event.sessions.map((session) => ({
          startsAt: instant(session.startsAt),
          endsAt: instant(session.endsAt),
        })),
      );
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['sessions'] });
    const types = (event.ticketTypes ?? []).map((type) => ({
      name: type.name,
      salesStartAt: instantOrNull(type.salesStartAt),
      salesEndAt: instantOrNull(type.salesEndAt),
      lots: type.lots.map((lot) => ({ endsAt: instantOrNull(lot.endsAt), quantity: lot.quantity })),
    }));
    for (const { path, message } of ticketTypeProblems(types)) {
      context.addIssue({ code: 'custom', message, path: ['ticketTypes', ...path] });
    }
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

/** An empty date and time is none (null). */
export const typedTime = (typed: unknown) => (typed === '' || typed === undefined ? null : typed);

/** The form as its parts receive it, and what it holds as typed. */
export type EventForm = ReturnType<typeof useZodForm<typeof eventFormSchema>>;
export type EventFormInput = z.input<typeof eventFormSchema>;

/** A message about a list as a whole (too many types, lots out of place), wherever the resolver put it. */
export function listError(errors: unknown): string | undefined {
  const list = errors as { message?: string; root?: { message?: string } } | undefined;
  return list?.message ?? list?.root?.message;
}
