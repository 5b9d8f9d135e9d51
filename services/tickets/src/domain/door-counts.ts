import type { DoorCountsView } from '@ticketing/proto';
import { readDoorCounts } from '../data/counts-repository.ts';
import type { TicketsDeps } from './deps.ts';

/** An event's counts are read at most once per this window for all its panels, however busy the door is. */
const COALESCE_MS = 200;

/** How the door of an event is going: admitted / expected, arrivals per minute and per device. */
export const doorCounts = (deps: Pick<TicketsDeps, 'db'>, eventId: string): Promise<DoorCountsView> =>
  readDoorCounts(deps.db, eventId);

export type CountsListener = (view: DoorCountsView) => void;

/** The door panels connected to this process, each following the counts of one event. */
export interface LiveCounts {
  /** Sends the event's counts to `listener` now and after every change; resolves with the way to stop. */
  watch(eventId: string, listener: CountsListener): Promise<() => void>;
  /** The event's tickets changed: its panels get fresh counts shortly. */
  changed(eventId: string): void;
  /** Changes may have gone unheard (the notices were down): every followed event gets fresh counts. */
  changedAll(): void;
  close(): void;
}

interface Panel {
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

  function deliver(panel: Panel, view: DoorCountsView) {
    // Two reads in flight may finish out of order: counts older than the last sent would move the panel back.
    if (view.at < panel.lastAt) return;
    panel.lastAt = view.at;
    panel.listener(view);
  }

  async function refresh(eventId: string, event: Followed) {
    event.refresh = undefined;
    event.readAt = Date.now();
    try {
      const view = await doorCounts(deps, eventId);
      for (const panel of event.panels) deliver(panel, view);
    } catch (error) {
      // The panels keep their last counts; the next change tries again.
      deps.logger.warn({ err: error, eventId }, 'door counts not refreshed');
    }
  }

  const live: LiveCounts = {
    async watch(eventId, listener) {
      const event = followed.get(eventId) ?? { panels: new Set<Panel>(), readAt: 0 };
      followed.set(eventId, event);
      const panel: Panel = { listener, lastAt: '' };
      event.panels.add(panel);
      const stop = () => {
        event.panels.delete(panel);
        if (event.panels.size > 0 || followed.get(eventId) !== event) return;
        clearTimeout(event.refresh);
        followed.delete(eventId);
      };
      // Followed before the first read: a change committed meanwhile still reaches this panel.
      try {
        deliver(panel, await doorCounts(deps, eventId));
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
