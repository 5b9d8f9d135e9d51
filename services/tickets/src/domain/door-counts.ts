import type { DoorCountsView } from '@ticketing/proto';
import { readDoorCounts } from '../data/counts-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { doorSessionOf, sessionsOfEvent } from './door-sessions.ts';

/** An event's counts are read at most once per this window for all its panels, however busy the door is. */
const COALESCE_MS = 200;

/** The counts of every session of an event, by session id. */
async function eventCounts(deps: Pick<TicketsDeps, 'db'>, eventId: string): Promise<Map<string, DoorCountsView>> {
  return readDoorCounts(deps.db, eventId, await sessionsOfEvent(deps, eventId));
}

/**
 * How the door of a session is going (the one whose door is open, unless named): admitted / expected, arrivals per
 * minute and per device, and how many each session of the event admitted.
 */
export async function doorCounts(
  deps: Pick<TicketsDeps, 'db'>,
  eventId: string,
  sessionId: string | undefined,
): Promise<DoorCountsView> {
  const { session, sessions } = await doorSessionOf(deps, eventId, sessionId);
  return (await readDoorCounts(deps.db, eventId, sessions)).get(session.id)!;
}

export type CountsListener = (view: DoorCountsView) => void;

/** The door panels connected to this process, each following the counts of one session of an event. */
export interface LiveCounts {
  /**
   * Sends the session's counts to `listener` now and after every change of the event; resolves with the way to stop.
   * The session is one of the event's (see doorSessionOf).
   */
  watch(eventId: string, sessionId: string, listener: CountsListener): Promise<() => void>;
  /** The event's tickets changed: its panels get fresh counts shortly. */
  changed(eventId: string): void;
  /** Changes may have gone unheard (the notices were down): every followed event gets fresh counts. */
  changedAll(): void;
  close(): void;
}

interface Panel {
  sessionId: string;
  listener: CountsListener;
  /** The snapshot time of the counts it last got. */
  lastAt: string;
}

interface Followed {
  panels: Set<Panel>;
  refresh?: NodeJS.Timeout;
  /** When its counts were last read for a change (ms). */
  readAt: number;
}

/**
 * Reads an event's counts for all its panels in this process, however many there are: a change after a quiet
 * spell at once, the changes that follow together at the end of the window.
 */
export function createLiveCounts(deps: Pick<TicketsDeps, 'db' | 'logger'>): LiveCounts {
  const followed = new Map<string, Followed>();

  function deliver(panel: Panel, views: Map<string, DoorCountsView>) {
    const view = views.get(panel.sessionId);
    // Two reads in flight may finish out of order: counts older than the last sent would move the panel back. A
    // session catalog has since removed gets no more counts.
    if (!view || view.at < panel.lastAt) return;
    panel.lastAt = view.at;
    panel.listener(view);
  }

  async function refresh(eventId: string, event: Followed) {
    event.refresh = undefined;
    event.readAt = Date.now();
    try {
      const views = await eventCounts(deps, eventId);
      for (const panel of event.panels) deliver(panel, views);
    } catch (error) {
      // The panels keep their last counts; the next change tries again.
      deps.logger.warn({ err: error, eventId }, 'door counts not refreshed');
    }
  }

  const live: LiveCounts = {
    async watch(eventId, sessionId, listener) {
      const event = followed.get(eventId) ?? { panels: new Set<Panel>(), readAt: 0 };
      followed.set(eventId, event);
      const panel: Panel = { sessionId, listener, lastAt: '' };
      event.panels.add(panel);
      const stop = () => {
        event.panels.delete(panel);
        if (event.panels.size > 0 || followed.get(eventId) !== event) return;
        clearTimeout(event.refresh);
        followed.delete(eventId);
      };
      // Followed before the first read: a change committed meanwhile still reaches this panel.
      try {
        deliver(panel, await eventCounts(deps, eventId));
      } catch (error) {
        stop();
        throw error;
      }
      return stop;
    },
    changed(eventId) {
      const event = followed.get(eventId);
      if (!event || event.refresh) return;
      const wait = Math.max(0, event.readAt + COALESCE_MS - Date.now());
      event.refresh = setTimeout(() => void refresh(eventId, event), wait);
    },
    changedAll() {
      for (const eventId of followed.keys()) live.changed(eventId);
    },
    close() {
      for (const event of followed.values()) clearTimeout(event.refresh);
      followed.clear();
    },
  };
  return live;
}
