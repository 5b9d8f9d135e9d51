import { rememberForgottenUser, type Knex } from '@ticketing/platform';
import { accountAddresses, redactUserEmails } from '../data/email-queue.ts';

/**
 * A deleted account's e-mails keep their delivery record (status, attempts, timestamps, template) but lose
 * everything personal; those not yet sent are cancelled, and later e-mail events for the account are dropped.
 * E-mails of no account sent to the account's own address (a courtesy invitation) lose it too.
 */
export async function forgetUser(trx: Knex.Transaction, userId: string) {
  await rememberForgottenUser(trx, userId);
  return redactUserEmails(trx, userId, await accountAddresses(trx, userId));
}
