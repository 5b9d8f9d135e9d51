import { useEffect, useState } from 'react';
import type { DoorCountsView } from '@ticketing/proto';
import { followCounts } from './live-counts.ts';

/**
 * The arrival counts of the event's session as the live stream last sent them (`sessionId` undefined: the session
 * whose door is open), and whether the stream is open now.
 */
export function useDoorCounts(eventId: string, sessionId: string | undefined) {
  const [counts, setCounts] = useState<DoorCountsView | null>(null);
  const [live, setLive] = useState(false);

  useEffect(() => {
    setCounts(null);
    setLive(false);
    const stop = new AbortController();
    // A stream of the previous event or session may still answer while it winds down: only the current one is heard.
    const current = () => !stop.signal.aborted;
    const listener = {
      onCounts: (next: DoorCountsView) => current() && setCounts(next),
      onLive: (next: boolean) => current() && setLive(next),
    };
    void followCounts(eventId, sessionId, listener, stop.signal);
    return () => stop.abort();
  }, [eventId, sessionId]);

  return { counts, live };
}
