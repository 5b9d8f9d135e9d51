import type { DoorEventView } from '@ticketing/proto';

/**
 * The event a door checks in, from the choice kept on the device (null: none yet) and the door's list (undefined
 * while it loads): the choice while it is still listed, else the first of the list (today's come first). '' is
 * every event, which only an admin may choose. Not `decided` while a door with no choice of its own waits for the
 * list: until then it has no event, never every event by default.
 */
export function doorEventOf(chosen: string | null, list: DoorEventView[] | undefined, isAdmin: boolean) {
  const listed = (id: string) => list?.some((event) => event.id === id) ?? true;
  const eventId =
    chosen === null || (chosen === '' && !isAdmin) || (chosen !== '' && !listed(chosen))
      ? (list?.[0]?.id ?? '')
      : chosen;
  return { eventId, decided: eventId !== '' || (chosen === '' && isAdmin) };
}
