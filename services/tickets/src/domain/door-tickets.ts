import type { DoorTicketsView } from '@ticketing/proto';
import { committedRevision, deviceConflicts, doorTicketsBetween } from '../data/door-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { toDoorConflict } from './door-readings.ts';

/**
 * What a scanner keeps to decide offline: the event's tickets changed after `after` (all without it), with no
 * personal data beyond the name shown at the door, and the conflicts this device took part in. The revision it
 * answers is one below which every change is already visible, so asking after it next time misses nothing.
 */
export async function doorTickets(
  deps: Pick<TicketsDeps, 'db'>,
  request: { eventId: string; after?: string; deviceId?: string },
): Promise<DoorTicketsView> {
  const eventId = request.eventId.toLowerCase();
  const revision = await committedRevision(deps.db, eventId);
  const [tickets, conflicts] = await Promise.all([
    doorTicketsBetween(deps.db, eventId, request.after, revision),
    request.deviceId ? deviceConflicts(deps.db, eventId, request.deviceId) : [],
  ]);
  return {
    eventId,
    revision,
    tickets: tickets.map((ticket) => ({
      ...ticket,
      // The door shows the type's name and whether to check a document; its id means nothing there.
      ticketType: ticket.ticketType && {
        name: ticket.ticketType.name,
        requiresDocument: ticket.ticketType.requiresDocument,
      },
      admissions: Object.fromEntries(
        Object.entries(ticket.admissions).map(([session, admission]) => [session, admission.at.toISOString()]),
      ),
    })),
    conflicts: conflicts.map(toDoorConflict),
  };
}
