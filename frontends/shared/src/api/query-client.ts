import { QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { api } from './client.ts';

/**
 * The API path a query key names: its segments joined by slashes, and a trailing object as the query string.
 * `['events', id]` → `/events/<id>`; `['orders', { page: 2 }]` → `/orders?page=2`.
 */
export function queryPath(key: QueryKey): string {
  const last = key.at(-1);
  const params = typeof last === 'object' && last !== null ? (last as Record<string, unknown>) : undefined;
  const segments = (params ? key.slice(0, -1) : key).map((segment) => encodeURIComponent(String(segment)));
  const search = params
    ? new URLSearchParams(
        Object.entries(params)
          .filter(([, value]) => value !== undefined && value !== null)
          .map(([name, value]) => [name, String(value)]),
      ).toString()
    : '';
  return `/${segments.join('/')}${search ? `?${search}` : ''}`;
}

const getByKey: QueryFunction = ({ queryKey, signal }) => api(queryPath(queryKey), { signal });

/** Data changes only when this site changes it: nothing refetches by itself and nothing retries on its own. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getByKey,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
