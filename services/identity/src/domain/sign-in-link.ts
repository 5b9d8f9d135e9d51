import { badRequest } from '@ticketing/platform';
import { useAllLinksOf, useLink } from '../data/emailed-links-repository.ts';
import { findUserByEmail, findUserForUpdate } from '../data/users-repository.ts';
import { emailLink, linkTokenHash, type LinkKind } from './emailed-links.ts';
import { issueToken } from './sessions.ts';
import { messages, type IdentityDeps, type User } from './user.ts';

/**
 * At most one link per account in this time, however many addresses try it: shorter than a link's lifetime, so
 * the owner always holds a live one, and long enough that a guesser cannot flood the mailbox.
 */
const SIGN_IN_LINK_COOLDOWN_SECONDS = 10 * 60;

const SIGN_IN_LINK: LinkKind = {
  table: 'sign_in_links',
  event: 'user.sign-in-link-requested',
  lifetimeMs: 15 * 60 * 1000,
  cooldownKey: (email) => `identity:sign-in-link-cooldown:${email.toLowerCase()}`,
};

/**
 * E-mails the account of `email` a single-use sign-in link (only its hash is stored), unless one went out within
 * the cooldown. Nothing happens for an address without an account: the caller's answer is the same.
 */
export async function sendSignInLink(deps: IdentityDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user?.passwordHash) return;
  // Without Redis the cooldown is not known: better one more e-mail than an owner left without a way in.
  const fresh = await deps.redis
    .set(SIGN_IN_LINK.cooldownKey(user.email), '1', 'EX', SIGN_IN_LINK_COOLDOWN_SECONDS, 'NX')
    .catch(() => 'OK');
  if (fresh !== 'OK') return;
  await emailLink(deps, SIGN_IN_LINK, user);
  deps.logger.info({ userId: user.id }, 'sign-in link sent');
}

/**
 * Opens a session with an e-mailed link: unused, unexpired, used once (every other link of the account ends with
 * it). The owner proved the mailbox, so the account's failed-login counts are cleared as by a right password.
 */
export async function signInWithLink(
  deps: IdentityDeps,
  input: { token: string; ip: string },
): Promise<{ token: string; user: User }> {
  const user = await deps.db.transaction(async (trx) => {
    const link = await useLink(trx, SIGN_IN_LINK.table, linkTokenHash(input.token));
    if (!link) return undefined;
    await useAllLinksOf(trx, SIGN_IN_LINK.table, link.userId);
    return findUserForUpdate(trx, link.userId);
  });
  if (!user) throw badRequest(messages.invalidSignInLink);
  await deps.throttle.succeeded({ email: user.email, ip: input.ip });
  const token = await issueToken(deps, user);
  deps.logger.info({ userId: user.id }, 'user logged in with a sign-in link');
  return { token, user };
}
