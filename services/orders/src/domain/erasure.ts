import { rememberForgottenUser, scrubUserEvents, type Knex, type Logger } from '@ticketing/platform';
import { erasedPerson, type EventPayload } from '@ticketing/proto';
import { eraseBuyer } from '../data/orders-repository.ts';

/**
 * A deleted account: its orders keep amounts, dates and statuses but lose the buyer's name, e-mail and CPF, and so
 * do the events about it kept here (outbox, dead letters). The user is remembered, so an event about them that
 * arrives later (a redemption on its way) is stored anonymised.
 */
// Tickets forgets the same person the same way in its own schema (holders instead of buyers): each service erases
// what it keeps, in its own transaction.
export async function forgetUser(
  deps: { logger: Logger },
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const erased = erasedPerson(userId);
  await rememberForgottenUser(trx, userId);
  const orders = await eraseBuyer(trx, userId, erased);
  const events =
    (await scrubUserEvents(trx, userId, 'buyer', { ...erased, cpf: '' })) +
    (await scrubUserEvents(trx, userId, 'attendee', { ...erased, cpf: '' }));
  deps.logger.info({ userId, orders, events }, 'personal data erased');
}
