import { notFound } from '@ticketing/platform';
import { findUserById } from '../data/users-repository.ts';
import { messages, type IdentityDeps, type User } from './user.ts';

/** A user as other services need it for a purchase (name, e-mail, CPF, verified); deleted accounts are gone. */
export async function findBuyer(deps: IdentityDeps, userId: string): Promise<User> {
  const user = await findUserById(deps.db, userId);
  if (!user || user.deletedAt) throw notFound(messages.userNotFound);
  return user;
}
