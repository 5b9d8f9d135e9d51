import { saoPauloClock, sessionsOrWhole, type EventPayload } from '@ticketing/proto';
import type { CertificateRow } from '../data/certificates-repository.ts';
import type { EventRow } from '../data/events-repository.ts';
import { verifyUrl } from './codes.ts';
import type { CertificateDocument } from './pdf.ts';

const day = (instant: string) => {
  const clock = saoPauloClock(new Date(instant));
  return `${clock.day}/${clock.month}/${clock.year}`;
};

/** The days an event ran: '12/03/2027', or its first and last day ('12/03/2027 a 14/03/2027'). */
export function eventDates(event: EventRow): string {
  const sessions = sessionsOrWhole(event, event.sessions);
  const first = day(sessions[0]!.startsAt);
  const last = day(sessions.at(-1)!.endsAt);
  return first === last ? first : `${first} a ${last}`;
}

/** The PNG of a signature kept as a data URL. */
export const signatureBytes = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

/** What a certificate prints, from its row, its event and the signature the event's settings hold. */
export function certificateDocument(
  siteUrl: string,
  certificate: CertificateRow,
  event: EventRow,
  signatureImage: string | null,
): CertificateDocument {
  return {
    code: certificate.code,
    holderName: certificate.holder_name,
    eventTitle: event.title,
    location: event.location,
    dates: eventDates(event),
    hours: Number(certificate.hours),
    sessions: certificate.sessions,
    body: certificate.body,
    signerName: certificate.signer_name,
    signerRole: certificate.signer_role,
    signatureImage: signatureImage ? signatureBytes(signatureImage) : null,
    verifyUrl: verifyUrl(siteUrl, certificate.code),
  };
}

/** The announcement of an issued certificate: mail sends it to its holder. */
export function issuedEvent(
  siteUrl: string,
  certificate: CertificateRow,
  event: EventRow,
): EventPayload<'certificate.issued'> {
  return {
    certificateId: certificate.id,
    code: certificate.code,
    ticketId: certificate.ticket_id,
    orderId: certificate.order_id,
    userId: certificate.user_id,
    eventId: certificate.event_id,
    holder: { name: certificate.holder_name, email: certificate.holder_email },
    event: { title: event.title, date: new Date(event.date).toISOString(), location: event.location },
    hours: Number(certificate.hours),
    verifyUrl: verifyUrl(siteUrl, certificate.code),
    issuedAt: new Date(certificate.issued_at).toISOString(),
    replaces: certificate.replaces,
  };
}
