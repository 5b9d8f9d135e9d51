import {
  eventTicketTypesSchema,
  eventViewSchema,
  holdConfirmedSchema,
  holdViewSchema,
  type EventTicketTypes,
  type EventView,
  type HoldView,
} from '@ticketing/proto';
import { AppError, conflict, notFound } from '../errors.ts';
import { CollaboratorError, jsonClient, type Caller } from '../http/json-client.ts';
import type { Logger } from '../logger.ts';

/** The catalog as the services that sell its spots use it (orders, courtesy). */
export interface CatalogClient {
  /** The event; a 404 carrying the catalog's own words when it is unknown or cancelled. */
  getEvent(eventId: string): Promise<EventView>;
  /** Every type the event sells, hidden ones too (courtesy only); a 404 as `getEvent`'s. */
  ticketTypes(eventId: string): Promise<EventTicketTypes['ticketTypes']>;
  /**
   * Holds `quantity` spots under `holdId` and answers the hold with the event; repeating it is harmless. Refusals
   * (409 sold out / unavailable) are thrown. A provisional hold is given back by the catalog unless `confirm`ed soon.
   */
  hold(eventId: string, holdId: string, quantity?: number, options?: HoldOptions): Promise<HoldView>;
  /** Keeps a provisional hold; one already given back is thrown (409). */
  confirm(eventId: string, holdId: string): Promise<void>;
  /** Gives the hold's spots back but `keep` of them; a hold that is unknown or already released is fine. */
  release(eventId: string, holdId: string, keep?: number): Promise<void>;
}

export interface HoldOptions {
  provisional?: boolean;
  /** One ticket of each type named (as many as the quantity): the answer's `lines` price them. */
  items?: { ticketTypeId: string }[];
  /** A promotional link's purchase may take the event's hidden types. */
  includeHidden?: boolean;
}

export function catalogClient(baseUrl: string, timeoutMs: number, caller: Caller): CatalogClient {
  const http = jsonClient('catalog', baseUrl, timeoutMs, caller);
  const holdPath = (eventId: string, holdId: string) =>
    `/internal/events/${encodeURIComponent(eventId)}/holds/${encodeURIComponent(holdId)}`;
  return {
    async getEvent(eventId) {
      try {
        return await http.call('GET', `/api/events/${encodeURIComponent(eventId)}`, eventViewSchema);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) throw notFound(error.message);
        throw error;
      }
    },
    async ticketTypes(eventId) {
      try {
        const path = `/internal/events/${encodeURIComponent(eventId)}/ticket-types`;
        return (await http.call('GET', path, eventTicketTypesSchema)).ticketTypes;
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) throw notFound(error.message);
        throw error;
      }
    },
    hold(eventId, holdId, quantity = 1, { provisional = false, items, includeHidden = false } = {}) {
      const body = { quantity, provisional, ...(items ? { items, includeHidden } : {}) };
      return http.call('PUT', holdPath(eventId, holdId), holdViewSchema, body);
    },
    async confirm(eventId, holdId) {
      await http.call('POST', `${holdPath(eventId, holdId)}/confirm`, holdConfirmedSchema);
    },
    async release(eventId, holdId, keep = 0) {
      try {
        const path = keep ? `${holdPath(eventId, holdId)}?keep=${keep}` : holdPath(eventId, holdId);
        await http.call('DELETE', path, holdViewSchema);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return;
        throw error;
      }
    },
  };
}

export const SERVICE_UNAVAILABLE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';

/**
 * An event the catalog says is on sale: known and not cancelled (404 otherwise, in the catalog's words), and open
 * for sale (409 with `unavailable`). The catalog not answering, or answering what its contract rejects, is a 503.
 */
export async function eventOnSale(
  deps: { catalog: CatalogClient; logger: Logger },
  eventId: string,
  unavailable: string,
): Promise<EventView> {
  let event: EventView;
  try {
    event = await deps.catalog.getEvent(eventId);
  } catch (error) {
    // Unknown or cancelled, in the catalog's words.
    if (error instanceof AppError) throw error;
    deps.logger.warn({ err: error, eventId }, 'catalog unavailable');
    throw new AppError(503, SERVICE_UNAVAILABLE);
  }
  if (!event.onSale) throw conflict(unavailable);
  return event;
}
