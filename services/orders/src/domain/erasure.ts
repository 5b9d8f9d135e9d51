import { forgetPerson, type Knex, type Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { eraseBuyer } from '../data/orders-repository.ts';

/**
 * A deleted account: its orders keep amounts, dates and statuses but lose the buyer's name, e-mail and CPF, and so
 * do the events about it kept here (outbox, dead letters). The user is remembered, so an event about them that
 * arrives later (a redemption on its way) is stored anonymised.
 */
export async function forgetUser(
  deps: { logger: Logger },
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const { records: orders, events } = await forgetPerson(trx, userId, ['buyer', 'attendee'], (erased) =>
    eraseBuyer(trx, userId, erased),
  );
  deps.logger.info({ userId, orders, events }, 'personal data erased');
}
