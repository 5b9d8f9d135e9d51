import { createParser } from 'eventsource-parser';
import type { DoorCountsView } from '@ticketing/proto';
import { bearer, getToken } from '@ticketing/shared';

/** Waits between reconnections: 1 s, doubling up to 30 s, back to 1 s once a stream has opened. */
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;
/**
 * The server sends a heartbeat every 15 s: a stream silent for longer than this is dead (a Wi-Fi drop the socket has
 * not noticed) and is opened again.
 */
const SILENCE_MS = 45_000;

interface Listener {
  onCounts(counts: DoorCountsView): void;
  /** `true` while the stream is open, `false` while it is being opened again. */
  onLive(live: boolean): void;
}

/**
 * Follows the arrival counts of the event's session `sessionId` (undefined: the session whose door is open) through
 * its Server-Sent Events stream until `signal` aborts. EventSource sends
 * no headers, so the stream is read with fetch and the session's token. A stream that ends or fails is opened again
 * with a growing wait, at once when the browser comes back online; a refusal (401, 403) is waited out the same way and
 * never ends the session: a door panel must not log its device out mid-shift.
 */
export async function followCounts(
  eventId: string,
  sessionId: string | undefined,
  listener: Listener,
  signal: AbortSignal,
): Promise<void> {
  const query = sessionId ? `?${new URLSearchParams({ sessionId })}` : '';
  const url = `/api/door/events/${encodeURIComponent(eventId)}/live${query}`;
  let wait = FIRST_WAIT_MS;
  while (!signal.aborted) {
    let opened = false;
    const opening = () => {
      opened = true;
      listener.onLive(true);
    };
    try {
      await readStream(url, { onCounts: listener.onCounts, onOpen: opening }, signal);
    } catch {
      // Offline, cut or fallen silent: the same wait as a stream that ended.
    }
    listener.onLive(false);
    if (opened) wait = FIRST_WAIT_MS;
    await pause(wait, signal);
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
  }
}

interface StreamListener {
  onCounts(counts: DoorCountsView): void;
  onOpen(): void;
}

/** Reads one stream until it ends, fails or falls silent; a refusal (401, 403, 404) ends it before it opens. */
async function readStream(url: string, { onCounts, onOpen }: StreamListener, signal: AbortSignal): Promise<void> {
  // Ends the request when the panel goes away or the stream falls silent (AbortSignal.any is too recent for phones).
  const ended = new AbortController();
  const leave = () => ended.abort();
  signal.addEventListener('abort', leave);
  let watchdog = window.setTimeout(leave, SILENCE_MS);
  try {
    const token = getToken();
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream', ...bearer(token) },
      credentials: 'include',
      cache: 'no-store',
      signal: ended.signal,
    });
    if (!response.ok || !response.body) return;
    onOpen();
    const parser = createParser({
      onEvent: (event) => {
        if (event.event === 'counts') onCounts(JSON.parse(event.data) as DoorCountsView);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      window.clearTimeout(watchdog);
      watchdog = window.setTimeout(leave, SILENCE_MS);
      parser.feed(chunk.value);
    }
  } finally {
    window.clearTimeout(watchdog);
    signal.removeEventListener('abort', leave);
  }
}

/** Resolves after `ms`, when the browser comes back online, or when `signal` aborts, whichever comes first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = window.setTimeout(done, ms);
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });
}
