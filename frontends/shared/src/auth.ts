import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { UserView } from '@ticketing/proto';
import { api, isApiError } from './api/client.ts';
import { expireSession, hasSession, setToken } from './session.ts';

export const meQueryKey = ['auth', 'me'] as const;

/** A refused session (401 is handled by the client for every call; 403 only means that here). */
async function fetchMe(): Promise<UserView> {
  try {
    return await api<UserView>('/auth/me');
  } catch (error) {
    if (isApiError(error, 403)) expireSession();
    throw error;
  }
}

export type Auth =
  | { status: 'loading'; user?: undefined }
  | { status: 'anonymous'; user?: undefined }
  | { status: 'authenticated'; user: UserView };

/** Who is logged in: asked only when a token is stored; network failures are retried, refusals are not. */
export function useAuth(): Auth {
  const me = useQuery({
    queryKey: meQueryKey,
    queryFn: fetchMe,
    enabled: hasSession(),
    retry: (failures, error) => failures < 3 && !isApiError(error, 401, 403),
  });
  if (me.data) return { status: 'authenticated', user: me.data };
  if (me.isLoading) return { status: 'loading' };
  return { status: 'anonymous' };
}

/** After login or e-mail verification: keeps the token and asks again who is logged in. */
export async function startSession(queryClient: QueryClient, token: string) {
  setToken(token);
  // Fetched here: while no token was stored the query was disabled, and a reset would not run it again.
  await queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 });
}

/** Avatar initials: the first letters of the name's first two words. */
export const initials = (name: string) =>
  name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase();
