import { randomUUID } from 'node:crypto';
import { conflict, type Knex } from '@ticketing/platform';
import { certificateMessages, DEFAULT_CERTIFICATE_TEXT, type IssueCertificatesAnswer } from '@ticketing/proto';
import { insertCertificates, type NewCertificate } from '../data/certificates-repository.ts';
import {
  claimAutoRelease,
  findSettings,
  pendingAutoReleases,
  type EventRow,
  type SettingsRow,
} from '../data/events-repository.ts';
import { uncertifiedHolders } from '../data/holders-repository.ts';
import { attendance, countedSessions, lastEnd, minimumAttendance } from './attendance.ts';
import { newCertificateCode } from './codes.ts';
import type { CertificatesDeps } from './deps.ts';
import { issuedEvent } from './document.ts';
import { knownEvent } from './settings.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Issues the certificates an event owes (administrator's request): every holder admitted to enough hours who has
 * none yet gets one, and an e-mail with it. Refused before the last session ends or while certificates are off.
 */
export async function releaseCertificates(
  deps: CertificatesDeps,
  eventId: string,
  now = new Date(),
): Promise<IssueCertificatesAnswer> {
  const event = await knownEvent(deps, eventId);
  const settings = await findSettings(deps.db, eventId);
  if (!settings?.enabled) throw conflict(certificateMessages.notEnabled);
  if (now < lastEnd(countedSessions(event, settings))) throw conflict(certificateMessages.notEnded);
  return deps.db.transaction((trx) => issueDue(deps, trx, event, settings));
}

/**
 * One round of the automatic release: each event whose `autoReleaseHours` after its end have passed is claimed by
 * one replica (the claim and the certificates commit together) and released once.
 */
export async function autoReleaseRound(deps: CertificatesDeps, now = new Date()): Promise<number> {
  let released = 0;
  for (const { event, settings } of await dueAutoReleases(deps, now)) {
    await deps.db.transaction(async (trx) => {
      if (!(await claimAutoRelease(trx, event.id))) return;
      const { issued } = await issueDue(deps, trx, event, settings);
      deps.logger.info({ eventId: event.id, issued }, 'certificates released automatically');
      released += 1;
    });
  }
  return released;
}

/** The events whose automatic release is due by `now` and has not run (the job releases them on its next round). */
export async function dueAutoReleases(
  deps: Pick<CertificatesDeps, 'db'>,
  now: Date,
): Promise<{ event: EventRow; settings: SettingsRow }[]> {
  const due: { event: EventRow; settings: SettingsRow }[] = [];
  for (const settings of await pendingAutoReleases(deps.db)) {
    const event = await knownEvent(deps, settings.event_id).catch(() => undefined);
    if (!event) continue;
    const dueAt = lastEnd(countedSessions(event, settings)).getTime() + settings.auto_release_hours! * HOUR_MS;
    if (now.getTime() >= dueAt) due.push({ event, settings });
  }
  return due;
}

async function issueDue(
  deps: CertificatesDeps,
  trx: Knex.Transaction,
  event: EventRow,
  settings: SettingsRow,
): Promise<IssueCertificatesAnswer> {
  const sessions = countedSessions(event, settings);
  const minimum = minimumAttendance(settings);
  const due: NewCertificate[] = [];
  let skipped = 0;
  for (const holder of await uncertifiedHolders(trx, event.id)) {
    const attended = attendance(sessions, new Set(holder.sessions), minimum);
    if (!attended) {
      skipped += 1;
      continue;
    }
    due.push({
      id: randomUUID(),
      code: newCertificateCode(),
      ticket_id: holder.ticket_id,
      order_id: holder.order_id,
      user_id: holder.user_id,
      event_id: event.id,
      holder_name: holder.name,
      holder_email: holder.email,
      buyer_holds: holder.buyer_holds,
      hours: attended.hours,
      sessions: attended.sessions.map(({ label, startsAt, endsAt, hours }) => ({ label, startsAt, endsAt, hours })),
      body: settings.text ?? DEFAULT_CERTIFICATE_TEXT,
      signer_name: settings.signer_name,
      signer_role: settings.signer_role,
      replaces: null,
    });
  }
  const issued = await insertCertificates(trx, due);
  await deps.outbox.addAll(
    trx,
    issued.map((certificate) => ({
      type: 'certificate.issued',
      key: certificate.ticket_id,
      payload: issuedEvent(deps.siteUrl, certificate, event),
    })),
  );
  return { issued: issued.length, skipped };
}
