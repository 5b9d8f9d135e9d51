import { notFound } from '@ticketing/platform';
import { findUserById } from '../data/users-repository.ts';
import { messages, type IdentityDeps, type User } from './user.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user as other services need it for a purchase (name, e-mail, CPF, verified); deleted accounts are gone. */
export async function findBuyer(deps: IdentityDeps, userId: string): Promise<User> {
  const user = UUID.test(userId) ? await findUserById(deps.db, userId) : undefined;
  if (!user || user.deletedAt) throw notFound(messages.userNotFound);
  return user;
}
