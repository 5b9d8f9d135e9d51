import { useEffect, useState } from 'react';
import type { DoorCountsView } from '@ticketing/proto';
import { followCounts } from './live-counts.ts';

/** The event's arrival counts as the live stream last sent them, and whether the stream is open now. */
export function useDoorCounts(eventId: string) {
  const [counts, setCounts] = useState<DoorCountsView | null>(null);
  const [live, setLive] = useState(false);

  useEffect(() => {
    setCounts(null);
    setLive(false);
    const stop = new AbortController();
    // A stream of the previous event may still answer while it winds down: only the current one is heard.
    const current = () => !stop.signal.aborted;
    const listener = {
      onCounts: (next: DoorCountsView) => current() && setCounts(next),
      onLive: (next: boolean) => current() && setLive(next),
    };
    void followCounts(eventId, listener, stop.signal);
    return () => stop.abort();
  }, [eventId]);

  return { counts, live };
}
