import type { ScanView } from '@ticketing/proto';
import { api, isApiError } from '@ticketing/shared';

/** What the door shows after a reading: the holder let in, or why not. */
export type Verdict =
  | { admitted: true; holder: string; eventTitle: string | null }
  | { admitted: false; message: string; holder: string | null; eventTitle: string | null };

/** Checks a QR text with the server, for the event the door checks in when one is chosen. */
export async function verifyTicket(qrCodeData: string, eventId?: string): Promise<Verdict> {
  try {
    const answer = await api<ScanView>('/verify-ticket', {
      method: 'POST',
      body: eventId ? { qrCodeData, eventId } : { qrCodeData },
    });
    return answer.success
      ? { admitted: true, holder: answer.userName || 'Verificado', eventTitle: answer.eventTitle }
      : { admitted: false, message: answer.message || 'Erro', holder: answer.userName, eventTitle: answer.eventTitle };
  } catch (error) {
    // The server's refusal when it gave one; no answer at all (network, unreadable body) is an unreadable code.
    const message = isApiError(error) ? error.message || 'Erro' : 'QR Code inválido';
    return { admitted: false, message, holder: null, eventTitle: null };
  }
}
