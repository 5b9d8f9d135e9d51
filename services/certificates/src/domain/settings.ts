import { badRequest, notFound } from '@ticketing/platform';
import {
  certificateMessages,
  DEFAULT_CERTIFICATE_TEXT,
  type CertificateSettingsInput,
  type CertificateSettingsView,
} from '@ticketing/proto';
import { findEvent, findSettings, saveSettings, type EventRow } from '../data/events-repository.ts';
import { countedSessions, lastEnd, minimumAttendance } from './attendance.ts';
import type { CertificatesDeps } from './deps.ts';
import { signatureBytes } from './document.ts';
import { isDrawable } from './pdf.ts';

/** The event as catalog announced it; 404 for one never heard of. */
export async function knownEvent(deps: Pick<CertificatesDeps, 'db'>, eventId: string): Promise<EventRow> {
  const event = await findEvent(deps.db, eventId);
  if (!event) throw notFound(certificateMessages.eventNotFound);
  return event;
}

/** An event's certificate settings with their defaults filled in (disabled until an administrator enables them). */
export async function certificateSettings(deps: CertificatesDeps, eventId: string): Promise<CertificateSettingsView> {
  const event = await knownEvent(deps, eventId);
  const settings = await findSettings(deps.db, eventId);
  const sessions = countedSessions(event, settings);
  return {
    eventId,
    eventTitle: event.title,
    enabled: settings?.enabled ?? false,
    sessions: sessions.map(({ id, label, startsAt, endsAt, hours }) => ({ id, label, startsAt, endsAt, hours })),
    minimumAttendance: minimumAttendance(settings),
    text: settings?.text ?? DEFAULT_CERTIFICATE_TEXT,
    signerName: settings?.signer_name ?? null,
    signerRole: settings?.signer_role ?? null,
    signatureImage: settings?.signature_image ?? null,
    autoReleaseHours: settings?.auto_release_hours ?? null,
    endsAt: lastEnd(sessions).toISOString(),
  };
}

/** Replaces an event's certificate settings; hours may be set only for the event's own sessions. */
export async function updateCertificateSettings(
  deps: CertificatesDeps,
  eventId: string,
  input: CertificateSettingsInput,
): Promise<CertificateSettingsView> {
  const event = await knownEvent(deps, eventId);
  const sessionIds = new Set(countedSessions(event, undefined).map((session) => session.id));
  const hoursBySession = input.hoursBySession ?? {};
  if (Object.keys(hoursBySession).some((id) => !sessionIds.has(id))) {
    throw badRequest(certificateMessages.unknownSession);
  }
  if (input.signatureImage && !isDrawable(signatureBytes(input.signatureImage))) {
    throw badRequest(certificateMessages.signatureImage);
  }
  await saveSettings(deps.db, {
    event_id: eventId,
    enabled: input.enabled,
    hours_by_session: hoursBySession,
    minimum_attendance: input.minimumAttendance ?? null,
    text: input.text || null,
    signer_name: input.signerName || null,
    signer_role: input.signerRole || null,
    signature_image: input.signatureImage ?? null,
    auto_release_hours: input.autoReleaseHours ?? null,
  });
  return certificateSettings(deps, eventId);
}
