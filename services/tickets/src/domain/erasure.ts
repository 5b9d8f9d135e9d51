import {
  rememberForgottenUser,
  replaceDoorAssignments,
  scrubUserEvents,
  type Knex,
  type Logger,
} from '@ticketing/platform';
import { erasedPerson, type EventPayload } from '@ticketing/proto';
import { eraseHolder } from '../data/tickets-repository.ts';

/**
 * A deleted account: its tickets keep their status, check-ins and QR codes but no longer name the holder nor keep
 * their CPF, and the events about it kept here (outbox, dead letters) lose the person too. The user is remembered,
 * so a ticket issued for them later names nobody either. The door then shows the mark instead of the name.
 */
export async function forgetUser(
  deps: { logger: Logger },
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const erased = erasedPerson(userId);
  await rememberForgottenUser(trx, userId);
  // A deleted account works no door.
  await replaceDoorAssignments(trx, userId, []);
  const tickets = await eraseHolder(trx, userId, erased);
  // order.paid (a dead letter) carries the buyer's CPF too.
  const events = await scrubUserEvents(trx, userId, 'buyer', { ...erased, cpf: '' });
  deps.logger.info({ userId, tickets, events }, 'personal data erased');
}
