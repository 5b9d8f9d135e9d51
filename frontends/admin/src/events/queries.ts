import type { QueryClient } from '@tanstack/react-query';
import type { AdminEventView, EventStatus } from '@ticketing/proto';

/** Every back-office event query starts with this key; its path is `/admin/events`. */
export const ADMIN_EVENTS_KEY = ['admin', 'events'] as const;

export const adminEventListKey = (search: { q: string; status: EventStatus | ''; page: number }) =>
  [...ADMIN_EVENTS_KEY, { q: search.q || undefined, status: search.status || undefined, page: search.page }] as const;

export const adminEventKey = (id: string) => [...ADMIN_EVENTS_KEY, id] as const;

/** An event the server just returned: its editor shows it at once, and the lists read it again when next shown. */
export function storeAdminEvent(queryClient: QueryClient, event: AdminEventView) {
  queryClient.setQueryData(adminEventKey(event.id), event);
  void queryClient.invalidateQueries({
    queryKey: ADMIN_EVENTS_KEY,
    predicate: (query) => typeof query.queryKey[2] === 'object',
    refetchType: 'none',
  });
}
