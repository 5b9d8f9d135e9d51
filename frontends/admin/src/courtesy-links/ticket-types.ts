import type { CourtesyEventTicketTypes } from '@ticketing/proto';

type LinkTicketType = CourtesyEventTicketTypes['ticketTypes'][number];

/** A type as the creation card offers it: a hidden one (sold only through such links) says so. */
export const ticketTypeLabel = (type: Pick<LinkTicketType, 'name' | 'hidden'>) =>
  type.hidden ? `${type.name} (oculto)` : type.name;

/** The query of the types a link of the event may name, hidden ones too (`/api/courtesy/events/:id/ticket-types`). */
export const ticketTypesKey = (eventId: string) => ['courtesy', 'events', eventId, 'ticket-types'] as const;
