import type { Knex } from '@ticketing/platform';
import type { ErasedPerson } from '@ticketing/proto';
import type { JobRow } from './jobs-repository.ts';

/** The attendees a user redeemed links for, and the addresses (lower-cased) those attendees gave. */
export async function redeemedAttendees(
  trx: Knex.Transaction,
  userId: string,
): Promise<{ attendeeIds: string[]; emails: string[] }> {
  const rows = (await trx('courtesy_redemptions')
    .join('courtesy_attendees', 'courtesy_attendees.id', 'courtesy_redemptions.attendee_id')
    .where({ 'courtesy_redemptions.user_id': userId })
    .select('courtesy_attendees.id', trx.raw('lower(courtesy_attendees.email) as email'))) as {
    id: string;
    email: string;
  }[];
  return { attendeeIds: rows.map((row) => row.id), emails: [...new Set(rows.map((row) => row.email))] };
}

/** Keeps of each attendee only that they redeemed (the redemption row) and for which event. */
export async function eraseAttendees(trx: Knex.Transaction, ids: string[], erased: ErasedPerson): Promise<number> {
  if (ids.length === 0) return 0;
  return trx('courtesy_attendees').whereIn('id', ids).update({
    name: erased.name,
    email: erased.email,
    cpf: null,
    phone: null,
    birth_date: null,
    address: null,
    partner_company: null,
    occupation: null,
    updated_at: trx.fn.now(),
  });
}

/** Replaces the recipient of links sent to any of `emails` (lower-cased). */
export async function eraseLinkRecipients(
  trx: Knex.Transaction,
  emails: string[],
  erased: ErasedPerson,
): Promise<number> {
  if (emails.length === 0) return 0;
  return trx('courtesy_links')
    .whereRaw('lower(recipient_email) = any(?::text[])', [emails])
    .update({ recipient_name: erased.name, recipient_email: erased.email, updated_at: trx.fn.now() });
}

/** Mass-send rows addressed to any of `emails` (lower-cased) that are still to be invited. */
export async function pendingGuestRows(
  trx: Knex.Transaction,
  emails: string[],
): Promise<Pick<JobRow, 'jobId' | 'line'>[]> {
  if (emails.length === 0) return [];
  const rows = (await trx('mass_send_rows')
    .where({ state: 'pending' })
    .whereRaw('lower(email) = any(?::text[])', [emails])
    .select('job_id', 'line')) as { job_id: string; line: number }[];
  return rows.map((row) => ({ jobId: row.job_id, line: row.line }));
}

/** Replaces the guest on mass-send rows addressed to any of `emails` (lower-cased). */
export async function eraseGuestRows(trx: Knex.Transaction, emails: string[], erased: ErasedPerson): Promise<number> {
  if (emails.length === 0) return 0;
  return trx('mass_send_rows')
    .whereRaw('lower(email) = any(?::text[])', [emails])
    .update({ name: erased.name, email: erased.email });
}

/**
 * Replaces the recipient inside stored courtesy.invited events (outbox, dead letters) sent to any of `emails`.
 */
export async function scrubInvitations(trx: Knex.Transaction, emails: string[], erased: ErasedPerson): Promise<number> {
  if (emails.length === 0) return 0;
  let changed = 0;
  for (const table of ['outbox', 'dead_letters']) {
    changed += await trx(table)
      .whereRaw(`lower(envelope #>> '{payload,recipient,email}') = any(?::text[])`, [emails])
      .update({
        envelope: trx.raw(`jsonb_set(envelope, '{payload,recipient}', ?::jsonb)`, [JSON.stringify(erased)]),
      });
  }
  return changed;
}
