import type { Knex } from '@ticketing/platform';
import { insertScan, type ScanCode } from '../data/scans-repository.ts';
import { admitTicket, findTicket, type Ticket } from '../data/tickets-repository.ts';
import type { TicketsDeps } from './deps.ts';
import { messages } from './messages.ts';
import { hasValidSignature, parseQrText, type TicketClaims } from './qr-code.ts';

export type { ScanCode };

/** What the door sees after a reading. */
export interface ScanResult {
  success: boolean;
  code: ScanCode;
  message: string;
  userName: string | null;
  eventTitle: string | null;
  usedAt: Date | null;
}

export interface ScanRequest {
  qrText: string;
  /** The event the door is checking in; a ticket of another event is refused. */
  doorEventId?: string;
  scannedBy: string;
}

/** The claims of a QR text whose signature checks out against a key in use. */
async function trustedClaims(deps: Pick<TicketsDeps, 'keys'>, text: string): Promise<TicketClaims | undefined> {
  const parsed = parseQrText(text);
  if (!parsed) return undefined;
  const key = await deps.keys.verifying(parsed.kid);
  return key && hasValidSignature(parsed, key) ? parsed.claims : undefined;
}

const refusal = (code: ScanCode, message: string, ticket?: Ticket): ScanResult => ({
  success: false,
  code,
  message,
  userName: ticket?.holderName ?? null,
  eventTitle: ticket?.eventTitle ?? null,
  usedAt: code === 'already_used' ? (ticket?.usedAt ?? null) : null,
});

/** Why a signed ticket was not admitted, read after the admission found no row to change. */
function whyRefused(ticket: Ticket | undefined, claims: TicketClaims, doorEventId: string | undefined): ScanResult {
  if (!ticket) return refusal('not_found', messages.notFound);
  if (ticket.eventId !== claims.eventId) return refusal('invalid', messages.invalid);
  if (doorEventId && doorEventId !== ticket.eventId)
    return refusal('wrong_event', messages.wrongEvent(ticket.eventTitle), ticket);
  if (ticket.version !== claims.version) return refusal('invalid', messages.outdated, ticket);
  if (ticket.status === 'cancelled') return refusal('cancelled', messages.cancelled, ticket);
  if (ticket.usedAt) return refusal('already_used', messages.alreadyUsed(ticket.usedAt), ticket);
  // Unused again by a reset that committed between the admission and this read: the door may just scan again.
  return refusal('invalid', messages.invalid, ticket);
}

/**
 * Checks a QR code at the door and admits its ticket exactly once. The signature is checked in memory; the
 * admission is one conditional UPDATE; the scan (admitted or refused) and, for an admission, the
 * ticket.checked-in event are written in the same transaction.
 */
export async function verifyTicket(deps: TicketsDeps, request: ScanRequest): Promise<ScanResult> {
  const { scannedBy } = request;
  const doorEventId = request.doorEventId ?? null;
  const claims = await trustedClaims(deps, request.qrText);

  const result = await deps.db.transaction(async (trx: Knex.Transaction) => {
    if (!claims) {
      await insertScan(trx, { ticketId: null, scannedBy, code: 'invalid', doorEventId });
      return refusal('invalid', messages.invalid);
    }
    const admitted =
      doorEventId && doorEventId !== claims.eventId ? undefined : await admitTicket(trx, claims, scannedBy);
    if (!admitted) {
      const refused = whyRefused(await findTicket(trx, claims.ticketId), claims, request.doorEventId);
      await insertScan(trx, { ticketId: claims.ticketId, scannedBy, code: refused.code, doorEventId });
      return refused;
    }
    await insertScan(trx, { ticketId: admitted.ticketId, scannedBy, code: 'valid', doorEventId });
    await deps.outbox.add(trx, 'ticket.checked-in', admitted.ticketId, {
      ticketId: admitted.ticketId,
      orderId: admitted.orderId,
      eventId: admitted.eventId,
      usedAt: admitted.usedAt.toISOString(),
      scannedBy,
    });
    return {
      success: true,
      code: 'valid',
      message: messages.valid,
      userName: admitted.holderName,
      eventTitle: admitted.eventTitle,
      usedAt: admitted.usedAt,
    } satisfies ScanResult;
  });

  const fields = { ticketId: claims?.ticketId ?? null, code: result.code, scannedBy, doorEventId };
  if (result.success) deps.logger.info(fields, 'ticket checked in');
  else deps.logger.info(fields, 'ticket refused');
  return result;
}
