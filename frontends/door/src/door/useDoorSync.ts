import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { getToken, storeRenewedToken } from '@ticketing/shared';
import { renewSession } from './server.ts';
import { DoorSync } from './sync.ts';

/** While the scanner is open, the token's end is looked at this often (and once when it opens)… */
const CHECK_MS = 5 * 60_000;
/** …and renewed once less than this is left. */
const RENEW_BEFORE_END_MS = 60 * 60_000;

/** When the token ends (its `exp`); 0 when it can't be read, so it is renewed. */
function tokenEnd(token: string | null): number {
  try {
    const payload = token!.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/');
    return (JSON.parse(atob(payload)) as { exp: number }).exp * 1000;
  } catch {
    return 0;
  }
}

/**
 * The device's door for `eventId` (or every event): synced while the scanner is open, its status on screen. The
 * session is renewed near its token's end, so a shift outlasts a token; not sooner, since a renewal ends the token
 * it replaces and calls still on their way with it. A refused session is shown, never a trip to /login.
 */
export function useDoorSync(eventId: string | undefined) {
  const sync = useMemo(() => new DoorSync(eventId), [eventId]);
  useEffect(() => {
    sync.start();
    return () => sync.stop();
  }, [sync]);
  const status = useSyncExternalStore(sync.subscribe, sync.snapshot);

  useEffect(() => {
    const renew = async () => {
      if (tokenEnd(getToken()) - Date.now() > RENEW_BEFORE_END_MS) return;
      const answer = await renewSession();
      if (answer.ok) storeRenewedToken(answer.value.token);
      else if (answer.why === 'expired') sync.noticeFailure('expired');
    };
    void renew();
    const timer = window.setInterval(renew, CHECK_MS);
    return () => window.clearInterval(timer);
  }, [sync]);

  return { sync, status };
}
