import { notFound } from '@ticketing/platform';
import { doorMessages } from '@ticketing/proto';
import { currentQrText } from '../data/door-repository.ts';
import type { TicketsDeps } from './deps.ts';
import type { Door } from './door.ts';
import type { ScanRequest, ScanResult } from './verify-ticket.ts';

/**
 * Admits a guest the door's look-up found, by the ticket's id: the server reads the ticket's current QR code and the
 * door verifies it as if it had been scanned, so the admission is recorded, counted and announced like any reading.
 * The QR code itself never leaves the server.
 */
export async function admitFromLookUp(
  deps: Pick<TicketsDeps, 'db'>,
  door: Door,
  request: Omit<ScanRequest, 'qrText' | 'doorEventId' | 'trace'> & { eventId: string; ticketId: string },
): Promise<ScanResult> {
  const { eventId, ticketId, ...reading } = request;
  const qrText = await currentQrText(deps.db, ticketId, eventId);
  if (!qrText) throw notFound(doorMessages.ticketNotInEvent);
  return door.verify({ ...reading, qrText, doorEventId: eventId });
}
