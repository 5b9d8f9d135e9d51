import type { Knex } from '@ticketing/platform';
import { redactUserEmails, rememberForgottenUser } from '../data/email-queue.ts';

/**
 * A deleted account's e-mails keep their delivery record (status, attempts, timestamps, template) but lose
 * everything personal; those not yet sent are cancelled, and later e-mail events for the account are dropped.
 */
export async function forgetUser(trx: Knex.Transaction, userId: string) {
  await rememberForgottenUser(trx, userId);
  return redactUserEmails(trx, userId);
}
