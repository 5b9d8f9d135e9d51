import type { Knex } from '@ticketing/platform';
import type { EventPayload } from '@ticketing/proto';
import { deleteLinksOf } from '../data/emailed-links-repository.ts';
import { anonymiseUser } from '../data/users-repository.ts';
import { deleteCodesOf } from '../data/verification-codes-repository.ts';
import { endDoorWorkIfRoleLost } from './door-staff.ts';
import { DELETED_ACCOUNT_NAME, type IdentityDeps, type User } from './user.ts';

/**
 * Inside the caller's transaction, with the account locked: the row is anonymised (orders keep pointing at it, its
 * e-mail and CPF are free again), its codes and links go, its door work ends and the other services hear of it.
 * The caller publishes the session state after the commit.
 */
export async function eraseAccount(
  deps: Pick<IdentityDeps, 'outbox' | 'settings'>,
  trx: Knex.Transaction,
  user: User,
): Promise<User> {
  const anonymised = await anonymiseUser(trx, user.id, DELETED_ACCOUNT_NAME);
  await endDoorWorkIfRoleLost(deps, trx, user, anonymised);
  await deleteCodesOf(trx, user.id);
  await deleteLinksOf(trx, 'password_resets', user.id);
  await deleteLinksOf(trx, 'sign_in_links', user.id);
  const payload: EventPayload<'user.deleted'> = { userId: user.id };
  await deps.outbox.add(trx, 'user.deleted', user.id, payload);
  return anonymised;
}
