import { maskCpf, type DoorSearchView } from '@ticketing/proto';
import { searchTickets } from '../data/door-repository.ts';
import type { TicketsDeps } from './deps.ts';

const MAX_HITS = 20;

/** `m***@gmail.com`: enough for the holder to recognise, not enough to copy. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** The CPF digits of a query typed as one (`123.456.789-09`, `12345678909`, `123.456`); null otherwise. */
export function cpfDigitsOf(q: string): string | null {
  if (!/^[\d.\-\s]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '');
  return digits.length >= 3 ? digits : null;
}

/**
 * The door's manual look-up, for a QR code that will not scan: the event's tickets by holder name, CPF, e-mail or
 * order number, with the e-mail and CPF masked and the ticket's current QR text, so admitting from a result is the
 * same reading as a scan.
 */
export async function searchDoorTickets(
  deps: Pick<TicketsDeps, 'db'>,
  request: { eventId: string; q: string },
): Promise<DoorSearchView> {
  const rows = await searchTickets(deps.db, request.eventId.toLowerCase(), {
    text: request.q,
    cpfDigits: cpfDigitsOf(request.q),
    limit: MAX_HITS,
  });
  return {
    tickets: rows.map((row) => ({
      ticketId: row.ticketId,
      orderId: row.orderId,
      orderNumber: row.orderNumber,
      holderName: row.holderName,
      holderEmail: maskEmail(row.holderEmail),
      cpf: maskCpf(row.holderCpf),
      status: row.status,
      usedAt: row.usedAt?.toISOString() ?? null,
      qrCodeData: row.qrText,
    })),
  };
}
