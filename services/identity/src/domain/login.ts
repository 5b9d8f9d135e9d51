import { forbidden, unauthorized } from '@ticketing/platform';
import { endSession } from '../data/sessions-repository.ts';
import { findUserByEmail } from '../data/users-repository.ts';
import { passwordMatches } from './passwords.ts';
import { issueToken, publishSessionState } from './sessions.ts';
import { sendSignInLink } from './sign-in-link.ts';
import { messages, type IdentityDeps, type Session, type User } from './user.ts';

/**
 * Opens a session. An address that has been failing on the account, or one spraying wrong passwords at many
 * accounts, waits (429) before the password is checked. Once the account has taken many failures, any other
 * address gets no password try: the owner is e-mailed a sign-in link instead (403 saying so, the same whether or
 * not the account exists). An unknown e-mail and a wrong password get the same answer in the same time.
 * Unverified accounts log in too (the page then asks for the code).
 */
export async function logIn(
  deps: IdentityDeps,
  input: { email: string; password: string; rememberMe?: boolean | undefined; ip: string },
): Promise<{ token: string; user: User }> {
  const attempt = { email: input.email, ip: input.ip };
  if ((await deps.throttle.check(attempt)) === 'challenge') {
    await sendSignInLink(deps, input.email);
    deps.logger.info('login challenged: sign-in link instead of a password try');
    throw forbidden(messages.signInLinkSent);
  }
  const user = await findUserByEmail(deps.db, input.email);
  // The password is checked even without an account (against a dummy hash), before anything else is decided.
  const matches = await passwordMatches(user?.passwordHash ?? null, input.password);
  if (!user || !matches) {
    await deps.throttle.failed(attempt);
    deps.logger.info({ userId: user?.id ?? null, reason: user ? 'wrong_password' : 'unknown_email' }, 'login refused');
    throw unauthorized(messages.invalidCredentials);
  }
  await deps.throttle.succeeded(attempt);
  const token = await issueToken(deps, user, { remember: input.rememberMe === true });
  deps.logger.info({ userId: user.id, rememberMe: input.rememberMe === true }, 'user logged in');
  return { token, user };
}

/**
 * Ends the session of this token ('Sair'): every token of its chain (the login's and each renewal's) is refused
 * everywhere from now on; the account's other sessions go on.
 */
export async function logOut(deps: IdentityDeps, session: Session): Promise<void> {
  await deps.db.transaction((trx) => endSession(trx, session));
  await publishSessionState(deps, session.userId);
  deps.logger.info({ userId: session.userId, sessionId: session.sessionId }, 'user logged out');
}
