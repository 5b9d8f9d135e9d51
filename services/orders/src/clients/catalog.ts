import type { EventView } from '@ticketing/proto';
import { CollaboratorError, jsonClient } from './http.ts';

/** The catalog as orders uses it: the event on sale, and the spot an order holds. */
export interface CatalogClient {
  /** The event, or null when the catalog does not know it (or it was deactivated). */
  getEvent(eventId: string): Promise<EventView | null>;
  /** Holds one spot under `holdId`; repeating it is harmless. Refusals (409 sold out / unavailable) are thrown. */
  hold(eventId: string, holdId: string): Promise<void>;
  /** Gives the spot back; a hold that is unknown or already released is fine. */
  release(eventId: string, holdId: string): Promise<void>;
}

export function catalogClient(baseUrl: string, timeoutMs: number): CatalogClient {
  const http = jsonClient('catalog', baseUrl, timeoutMs);
  const holdPath = (eventId: string, holdId: string) =>
    `/internal/events/${encodeURIComponent(eventId)}/holds/${encodeURIComponent(holdId)}`;
  return {
    async getEvent(eventId) {
      try {
        return await http.call<EventView>('GET', `/api/events/${encodeURIComponent(eventId)}`);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return null;
        throw error;
      }
    },
    async hold(eventId, holdId) {
      await http.call('PUT', holdPath(eventId, holdId), { quantity: 1 });
    },
    async release(eventId, holdId) {
      try {
        await http.call('DELETE', holdPath(eventId, holdId));
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return;
        throw error;
      }
    },
  };
}
