import { useSyncExternalStore } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { UserView } from '@ticketing/proto';
import { api, ApiError } from './api/client.ts';
import { claimDevice } from './device-data.ts';
import { hasSession, setToken } from './session.ts';

export const meQueryKey = ['auth', 'me'] as const;

/** Only the server's 401 ends a session, and the client handles it for every call. */
const fetchMe = () => api<UserView>('/auth/me');

/** Offline, or a service down (5xx): nothing says the session is over, so it is kept and checked again. */
const isTransient = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

export type Auth =
  | { status: 'loading'; user?: undefined }
  | { status: 'anonymous'; user?: undefined }
  | { status: 'authenticated'; user: UserView };

const subscribeToStorage = (onChange: () => void) => {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
};

/**
 * Whether a token is stored. A server-rendered page was rendered for nobody, so while it hydrates the answer is
 * no; React then renders again with the stored one.
 */
const useHasSession = () => useSyncExternalStore(subscribeToStorage, hasSession, () => false);

/**
 * Who is logged in: asked only when a token is stored. Network failures and server errors are retried with a growing
 * delay, and meanwhile the session counts as being checked, never as logged out; refusals are not retried.
 */
export function useAuth(): Auth {
  const session = useHasSession();
  const me = useQuery({
    queryKey: meQueryKey,
    queryFn: fetchMe,
    enabled: session,
    // With react-query's backoff: 1 s, 2 s, 4 s… up to 30 s between checks.
    retry: (_failures, error) => isTransient(error),
  });
  if (me.data) return { status: 'authenticated', user: me.data };
  // Pending also while a retry waits, or while the browser is offline and the query paused.
  if (session && me.isPending) return { status: 'loading' };
  return { status: 'anonymous' };
}

/**
 * After login or e-mail verification: keeps the token and asks again who is logged in; what the device kept for
 * another account is forgotten.
 */
export async function startSession(queryClient: QueryClient, token: string) {
  setToken(token);
  // Fetched here: while no token was stored the query was disabled, and a reset would not run it again.
  const user = await queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 });
  await claimDevice(user.id);
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
