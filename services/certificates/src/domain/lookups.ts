import { notFound } from '@ticketing/platform';
import {
  certificateCode,
  certificateMessages,
  certificateStatusLabel,
  type AdminCertificateView,
  type CertificateView,
  type PublicCertificateView,
} from '@ticketing/proto';
import {
  byEvent,
  byHolder,
  findByCode,
  findById,
  isHeldBy,
  type CertificateRow,
} from '../data/certificates-repository.ts';
import { findEvent, findSettings, type EventRow } from '../data/events-repository.ts';
import type { CertificatesDeps } from './deps.ts';
import { certificateDocument } from './document.ts';
import { certificatePdf } from './pdf.ts';

/** What anyone holding the code may read of a certificate: never the holder's e-mail or CPF. */
function publicView(certificate: CertificateRow, event: EventRow): PublicCertificateView {
  return {
    code: certificate.code,
    holderName: certificate.holder_name,
    eventTitle: event.title,
    eventLocation: event.location,
    hours: Number(certificate.hours),
    sessions: certificate.sessions,
    issuedAt: new Date(certificate.issued_at).toISOString(),
    status: certificateStatusLabel[certificate.status],
  };
}

const holderView = (certificate: CertificateRow, event: EventRow): CertificateView => ({
  ...publicView(certificate, event),
  id: certificate.id,
  eventId: certificate.event_id,
  ticketId: certificate.ticket_id,
});

export const adminView = (certificate: CertificateRow, event: EventRow): AdminCertificateView => ({
  ...holderView(certificate, event),
  holderEmail: certificate.holder_email,
});

async function eventsOf(deps: Pick<CertificatesDeps, 'db'>, certificates: CertificateRow[]) {
  const ids = [...new Set(certificates.map((certificate) => certificate.event_id))];
  const events = (await deps.db('events').whereIn('id', ids)) as EventRow[];
  return new Map(events.map((event) => [event.id, event]));
}

/** A certificate by its code, as the verification page shows it; undefined for a code nobody was given. */
export async function verifyCertificate(
  deps: Pick<CertificatesDeps, 'db'>,
  code: string | undefined,
): Promise<PublicCertificateView | undefined> {
  const parsed = certificateCode.safeParse(code);
  if (!parsed.success) return undefined;
  const certificate = await findByCode(deps.db, parsed.data);
  const event = certificate && (await findEvent(deps.db, certificate.event_id));
  return certificate && event ? publicView(certificate, event) : undefined;
}

/** The signed-in holder's own certificates (whoever bought the ticket), newest first. */
export async function myCertificates(
  deps: Pick<CertificatesDeps, 'db'>,
  holder: { id: string; email: string },
): Promise<CertificateView[]> {
  const certificates = await byHolder(deps.db, holder);
  const events = await eventsOf(deps, certificates);
  return certificates.map((certificate) => holderView(certificate, events.get(certificate.event_id)!));
}

/** An event's certificates, for its administrators. */
export async function eventCertificates(
  deps: Pick<CertificatesDeps, 'db'>,
  event: EventRow,
): Promise<AdminCertificateView[]> {
  return (await byEvent(deps.db, event.id)).map((certificate) => adminView(certificate, event));
}

/** A certificate's PDF, by its id (mail) or its code; its holder's or an administrator's. */
export async function certificateFile(
  deps: CertificatesDeps,
  which: { id: string } | { code: string; reader: { id: string; email: string; isAdmin: boolean } },
): Promise<{ filename: string; pdf: Buffer }> {
  const certificate = 'id' in which ? await findById(deps.db, which.id) : await findByCode(deps.db, which.code);
  if (!certificate) throw notFound(certificateMessages.notFound);
  if ('reader' in which && !which.reader.isAdmin && !isHeldBy(certificate, which.reader)) {
    throw notFound(certificateMessages.notFound);
  }
  const event = (await findEvent(deps.db, certificate.event_id))!;
  const settings = await findSettings(deps.db, certificate.event_id);
  const pdf = await certificatePdf(
    certificateDocument(deps.siteUrl, certificate, event, settings?.signature_image ?? null),
  );
  return { filename: `certificado-${certificate.code}.pdf`, pdf };
}
