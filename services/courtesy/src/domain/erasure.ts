import { scrubUserEvents, type Knex } from '@ticketing/platform';
import { erasedPerson, type EventPayload } from '@ticketing/proto';
import {
  eraseAttendees,
  eraseGuestRows,
  eraseLinkRecipients,
  pendingGuestRows,
  redeemedAttendees,
  scrubInvitations,
} from '../data/erasure-repository.ts';
import { settleRow } from '../data/jobs-repository.ts';
import { messages, type CourtesyDeps } from './deps.ts';

/**
 * A deleted account: the guests it redeemed links for lose everything the form said about them (name, e-mail, CPF,
 * phone, birth date, address, company, occupation), and so do the invitations sent to those addresses (the link's
 * recipient, the mass-send row, the courtesy.invited event). Redemptions, uses and counts stay. An invitation not
 * sent yet is not sent: its row fails with why.
 */
export async function forgetUser(
  deps: Pick<CourtesyDeps, 'logger'>,
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const erased = erasedPerson(userId);
  const { attendeeIds, emails } = await redeemedAttendees(trx, userId);
  for (const row of await pendingGuestRows(trx, emails)) {
    await settleRow(trx, row, { state: 'failed', error: messages.guestErased });
  }
  const counts = {
    attendees: await eraseAttendees(trx, attendeeIds, erased),
    links: await eraseLinkRecipients(trx, emails, erased),
    guestRows: await eraseGuestRows(trx, emails, erased),
    events:
      (await scrubUserEvents(trx, userId, 'attendee', { ...erased, cpf: '' })) +
      (await scrubUserEvents(trx, userId, 'buyer', erased)) +
      (await scrubInvitations(trx, emails, erased)),
  };
  deps.logger.info({ userId, ...counts }, 'personal data erased');
}
