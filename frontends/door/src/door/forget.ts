import type { DoorEventView } from '@ticketing/proto';
import { doorDb, KEPT_READINGS } from './db.ts';
import { eventSessions } from './door-session.ts';
import { keptUntil } from './kept-until.ts';

/**
 * Forgets what the door no longer needs, given the events it checks in now: the ticket lists and conflicts of
 * events past the morning after their last session or no longer listed for this door, and last readings past theirs. Queued readings
 * stay until the server records them.
 */
export async function forgetPast(events: DoorEventView[], now: number): Promise<void> {
  const until = new Map(events.map((event) => [event.id, keptUntil(eventSessions(event).at(-1)!.endsAt)]));
  const over = (eventId: string) => !((until.get(eventId) ?? 0) > now);
  const db = await doorDb();
  const tx = db.transaction(['tickets', 'revisions', 'conflicts', 'readings'], 'readwrite');
  const tickets = tx.objectStore('tickets');
  const pastEvents = (await tx.objectStore('revisions').getAllKeys()).filter(over);
  const pastTickets = (
    await Promise.all(pastEvents.map((eventId) => tickets.index('byEvent').getAllKeys(eventId)))
  ).flat();
  const pastConflicts = (await tx.objectStore('conflicts').getAll()).filter((conflict) => over(conflict.eventId));
  const pastReadings = (await tx.objectStore('readings').getAll()).filter(
    (reading) => keptUntil(reading.readAt) <= now || (reading.eventId !== '' && over(reading.eventId)),
  );
  await Promise.all([
    ...pastEvents.map((eventId) => tx.objectStore('revisions').delete(eventId)),
    ...pastTickets.map((id) => tickets.delete(id)),
    ...pastConflicts.map((conflict) => tx.objectStore('conflicts').delete([conflict.ticketId, conflict.sessionId])),
    ...pastReadings.map((reading) => tx.objectStore('readings').delete(reading.readingId)),
  ]);
  await tx.done;
}

/** Keeps only the readings 'Últimas leituras' shows: the server has the others, or has them queued. */
export async function trimReadings(): Promise<void> {
  const db = await doorDb();
  const tx = db.transaction('readings', 'readwrite');
  let cursor = await tx.store.index('byReadAt').openCursor(null, 'prev');
  cursor = cursor && (await cursor.advance(KEPT_READINGS));
  while (cursor) {
    await cursor.delete();
    cursor = await cursor.continue();
  }
  await tx.done;
}
