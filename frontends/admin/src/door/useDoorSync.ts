import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { setToken } from '@ticketing/shared';
import { renewSession } from './server.ts';
import { DoorSync } from './sync.ts';

/** A door session renews itself this often while the scanner is open (and once when it opens). */
const RENEW_MS = 30 * 60_000;

/**
 * The device's door for `eventId` (or every event): synced while the scanner is open, its status on screen. The
 * session is renewed meanwhile, so a shift outlasts a token; a refused one is shown, never a trip to /login.
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
      const answer = await renewSession();
      if (answer.ok) setToken(answer.value.token);
      else if (answer.why === 'expired') sync.noticeFailure('expired');
    };
    void renew();
    const timer = window.setInterval(renew, RENEW_MS);
    return () => window.clearInterval(timer);
  }, [sync]);

  return { sync, status };
}
