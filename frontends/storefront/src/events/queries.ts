import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EventView } from '@ticketing/proto';

/** The public listing (upcoming events, soonest first), narrowed by `q` when a search is typed. */
export const eventsQueryKey = (q = '') => (q ? ['events', { q }] : ['events']);

/** While a new search runs, the previous results stay on screen instead of skeletons. */
export const useEvents = (q = '') =>
  useQuery<EventView[]>({ queryKey: eventsQueryKey(q), placeholderData: keepPreviousData });

export const eventQueryKey = (id: string) => ['events', id];

export const useEvent = (id: string) => useQuery<EventView>({ queryKey: eventQueryKey(id) });
