import type { DoorEventView } from '@ticketing/proto';
import { doorKeys } from '@ticketing/shared';

/**
 * This phone's id at the door, the event and session it checks in and the door's events: kept on the device across reloads; a
 * sign-out forgets all but the phone's id.
 */
const { device: DEVICE_KEY, event: EVENT_KEY, session: SESSION_KEY, events: EVENTS_KEY } = doorKeys;

/** A random id made once per device (per browser profile), so counts and conflicts can name it. */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID().replaceAll('-', '');
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The event chosen last on this device; '' for every event (admins only). */
export const rememberedEvent = () => localStorage.getItem(EVENT_KEY);
export const rememberEvent = (eventId: string) => localStorage.setItem(EVENT_KEY, eventId);

/** The session chosen last on this device, whichever its event; null before any choice. */
export const rememberedSession = () => localStorage.getItem(SESSION_KEY);
export const rememberSession = (sessionId: string) => localStorage.setItem(SESSION_KEY, sessionId);

/** The door's events as the server last listed them; null before the first list. */
export const keptEvents = (): DoorEventView[] | null => JSON.parse(localStorage.getItem(EVENTS_KEY) ?? 'null');
export const keepEvents = (events: DoorEventView[]) => localStorage.setItem(EVENTS_KEY, JSON.stringify(events));
