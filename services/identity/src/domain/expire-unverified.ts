import { lockUnverifiedCreatedBefore } from '../data/users-repository.ts';
import { eraseAccount } from './erase-account.ts';
import { publishSessionState } from './sessions.ts';
import type { IdentityDeps } from './user.ts';

/** Accounts erased per transaction: a large backlog goes in short steps, and replicas share it (skip locked). */
const BATCH = 100;

/**
 * Erases the accounts that never verified an e-mail within the configured time (7 days), as a deletion does:
 * their e-mail and CPF are free for whoever really owns them. Returns how many went.
 */
export async function expireUnverifiedAccounts(deps: IdentityDeps, signal?: AbortSignal): Promise<number> {
  const before = new Date(Date.now() - deps.settings.unverifiedAccountTtlSeconds * 1000);
  let total = 0;
  while (!signal?.aborted) {
    const erased = await deps.db.transaction(async (trx) => {
      const users = await lockUnverifiedCreatedBefore(trx, before, BATCH);
      for (const user of users) await eraseAccount(deps, trx, user);
      return users.map((user) => user.id);
    });
    for (const userId of erased) await publishSessionState(deps, userId);
    total += erased.length;
    if (erased.length < BATCH) break;
  }
  if (total > 0) deps.logger.info({ count: total }, 'unverified accounts expired');
  return total;
}
