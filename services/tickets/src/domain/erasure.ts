import { forgetPerson, replaceDoorAssignments, type Knex, type Logger } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { eraseHolder } from '../data/tickets-repository.ts';

/**
 * A deleted account: the tickets it bought keep their status, check-ins and QR codes but no longer name it (as buyer,
 * or as holder, with their CPF); those it bought for others keep their holders. The events about it kept here
 * (outbox, dead letters) lose the person too, as buyer and holder (order.paid, a dead letter, carries the buyer's CPF
 * too). The user is remembered, so a ticket issued for them later names nobody either. The door then shows the mark
 * instead of the name. A deleted account works no door.
 */
export async function forgetUser(
  deps: { logger: Logger },
  trx: Knex.Transaction,
  { userId }: EventPayload<'user.deleted'>,
): Promise<void> {
  const { records: tickets, events } = await forgetPerson(trx, userId, ['buyer', 'holder'], async (erased) => {
    await replaceDoorAssignments(trx, userId, []);
    return eraseHolder(trx, userId, erased);
  });
  deps.logger.info({ userId, tickets, events }, 'personal data erased');
}
