import { decodeJwt } from 'jose';
import { AppError, SERVICE_UNAVAILABLE, unauthorized } from '@ticketing/platform';
import { advanceSession, findOpenSession, type SessionRecord } from '../data/sessions-repository.ts';
import { findUserById } from '../data/users-repository.ts';
import { publishSessionState, sessionMaxAge, signSessionToken } from './sessions.ts';
import { messages, rolesOf, type IdentityDeps, type Session } from './user.ts';

/**
 * Two tabs (or a retried request) renewing the same token at once: the one that comes second, within this long of
 * the first, gets a token of the generation the first made instead of a refusal. Any other superseded token renews
 * nothing.
 */
const CONCURRENT_RENEWAL_MS = 10_000;

const renewedJustNow = (current: SessionRecord, session: Session) =>
  current.generation === session.generation + 1 && Date.now() - current.renewedAt.getTime() < CONCURRENT_RENEWAL_MS;

/**
 * The next token of the caller's session, with the roles the account holds now; the token presented is superseded
 * and refused from then on. The session never outlasts its absolute end (a door shift, a remembered week), which
 * shortens to a door shift when the account became door staff. The database judges the session: ended, superseded
 * or of a deleted account renews nothing (401) and spends none of the account's renewals. When the store does not
 * answer the caller is told to retry (503): a 401 would send a working door back to the login page.
 */
export async function renewSession(deps: IdentityDeps, session: Session): Promise<{ token: string; expiresAt: Date }> {
  const { user, current } = await storeAnswer(deps, session, async () => ({
    user: await findUserById(deps.db, session.userId),
    current: await findOpenSession(deps.db, session),
  }));
  const renewable = current && (current.generation === session.generation || renewedJustNow(current, session));
  if (!user || !renewable) throw unauthorized(messages.sessionInvalid);
  await deps.renewals(session.userId);
  return storeAnswer(deps, session, async () => {
    const maxAge = sessionMaxAge(deps.settings, rolesOf(deps.settings, user), current.remembered);
    const advanced = await deps.db.transaction((trx) => advanceSession(trx, session, maxAge));
    // Lost the race to a renewal of the same token: the session is where that one left it.
    const renewed = advanced ?? (await findOpenSession(deps.db, session));
    if (!renewed || !(advanced || renewedJustNow(renewed, session))) throw unauthorized(messages.sessionInvalid);
    await publishSessionState(deps, user.id);
    const token = await signSessionToken(deps, user, renewed);
    deps.logger.info({ userId: user.id, sessionId: renewed.id, generation: renewed.generation }, 'session renewed');
    return { token, expiresAt: new Date(decodeJwt(token).exp! * 1000) };
  });
}

/** Runs `work` against the store; a store that does not answer is a 503, never a refusal. */
async function storeAnswer<T>(deps: IdentityDeps, session: Session, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    deps.logger.error({ err: error, userId: session.userId }, 'session not renewed: store unavailable');
    throw new AppError(503, SERVICE_UNAVAILABLE);
  }
}
