import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DoorEventView } from '@ticketing/proto';
import { api, isApiError } from '@ticketing/shared';
import {
  keepEvents,
  keptEvents,
  rememberedEvent,
  rememberedSession,
  rememberEvent,
  rememberSession,
} from './device.ts';
import { doorEventOf } from './door-event.ts';
import { doorSessionOf, eventSessions, keptChoice } from './door-session.ts';

export const doorEventsKey = ['door', 'events'] as const;

/**
 * The door's events from the server, kept on the device as well: without a network or a server, the service
 * worker's copy answers, and should the browser have dropped that copy, the device's. A refusal is not covered up.
 */
async function fetchDoorEvents(signal: AbortSignal): Promise<DoorEventView[]> {
  try {
    const events = await api<DoorEventView[]>('/door/events', { signal, keepSessionOn401: true });
    keepEvents(events);
    return events;
  } catch (error) {
    const kept = keptEvents();
    if (!kept || (isApiError(error) && error.status < 500)) throw error;
    return kept;
  }
}

/** The events a door checks in, today's first; an expired session is the door's banner, not a trip to /login. */
export const useDoorEvents = () =>
  useQuery({
    queryKey: doorEventsKey,
    queryFn: ({ signal }) => fetchDoorEvents(signal),
    networkMode: 'offlineFirst',
  });

/**
 * The event this door checks in (see `doorEventOf`) and its session (the one chosen, else the one whose door is
 * open: see `doorSessionOf`; a choice kept on the device only until its session ends, see `keptChoice`), and how the
 * door chooses others. Readings wait for the session as for the event.
 */
export function useDoorEvent(isAdmin: boolean) {
  const events = useDoorEvents();
  const [chosen, setChosen] = useState(rememberedEvent);
  const [chosenSession, setChosenSession] = useState(() => ({ id: rememberedSession(), kept: true }));
  const list = events.data;
  const { eventId, decided } = doorEventOf(chosen, list, isAdmin);
  // The list kept on the device names the sessions while a refused login keeps the server's from the door.
  const event = (list ?? keptEvents())?.find((found) => found.id === eventId);
  const sessions = event && eventSessions(event);
  const choice = chosenSession.kept ? keptChoice(chosenSession.id, sessions) : chosenSession.id;
  const sessionId = eventId ? doorSessionOf(choice, sessions) : undefined;

  const choose = useCallback((id: string) => {
    rememberEvent(id);
    setChosen(id);
  }, []);
  const chooseSession = useCallback((id: string) => {
    rememberSession(id);
    setChosenSession({ id, kept: false });
  }, []);
  const titleOf = useCallback((id: string) => list?.find((found) => found.id === id)?.title ?? null, [list]);
  return {
    events,
    eventId,
    sessions: sessions ?? [],
    sessionId,
    decided: decided && (!eventId || sessionId !== undefined),
    choose,
    chooseSession,
    titleOf,
  };
}
