import type { Knex } from '@ticketing/platform';
import { isUuid } from '@ticketing/proto';

/** One login and the renewals that followed it: a token is good only at the session's current generation. */
export interface SessionRecord {
  id: string;
  userId: string;
  generation: number;
  remembered: boolean;
  createdAt: Date;
  renewedAt: Date;
  /** The absolute end: no renewal reaches past it. */
  endsAt: Date;
}

interface SessionRow {
  id: string;
  user_id: string;
  generation: number;
  remembered: boolean;
  created_at: Date;
  renewed_at: Date;
  ends_at: Date;
}

const toSession = (row: SessionRow): SessionRecord => ({
  id: row.id,
  userId: row.user_id,
  generation: row.generation,
  remembered: row.remembered,
  createdAt: row.created_at,
  renewedAt: row.renewed_at,
  endsAt: row.ends_at,
});

/** A token's place in its session, as its claims state it. */
export interface SessionKey {
  sessionId: string;
  userId: string;
  generation: number;
}

/**
 * Opens a session of `maxAgeSeconds`. The account keeps at most `keep` open sessions: ended ones go, and the ones
 * renewed longest ago end to make room.
 */
export async function insertSession(
  trx: Knex.Transaction,
  session: { userId: string; remembered: boolean; maxAgeSeconds: number; keep: number },
): Promise<SessionRecord> {
  await trx('sessions').where({ user_id: session.userId }).where('ends_at', '<=', trx.fn.now()).delete();
  const excess = trx('sessions')
    .select('id')
    .where({ user_id: session.userId })
    .orderBy('renewed_at', 'desc')
    .offset(session.keep - 1);
  await trx('sessions').whereIn('id', excess).delete();
  const [row] = (await trx('sessions')
    .insert({
      user_id: session.userId,
      remembered: session.remembered,
      ends_at: trx.raw('now() + make_interval(secs => ?)', [session.maxAgeSeconds]),
    })
    .returning('*')) as SessionRow[];
  return toSession(row!);
}

/**
 * Moves the session on to its next generation (the token presented is then superseded), ending it no later than
 * `maxAgeSeconds` after it opened. Undefined when the session is not open at `generation`.
 */
export async function advanceSession(
  trx: Knex.Transaction,
  key: SessionKey,
  maxAgeSeconds: number,
): Promise<SessionRecord | undefined> {
  if (!isUuid(key.sessionId)) return undefined;
  const [row] = (await trx('sessions')
    .where({ id: key.sessionId, user_id: key.userId, generation: key.generation })
    .where('ends_at', '>', trx.fn.now())
    .update({
      generation: trx.raw('generation + 1'),
      renewed_at: trx.fn.now(),
      ends_at: trx.raw('least(ends_at, created_at + make_interval(secs => ?))', [maxAgeSeconds]),
    })
    .returning('*')) as SessionRow[];
  return row && toSession(row);
}

/** The session, if it is still open (at whatever generation). */
export async function findOpenSession(
  db: Knex,
  { sessionId, userId }: Omit<SessionKey, 'generation'>,
): Promise<SessionRecord | undefined> {
  if (!isUuid(sessionId)) return undefined;
  const row = (await db('sessions')
    .where({ id: sessionId, user_id: userId })
    .where('ends_at', '>', db.fn.now())
    .first()) as SessionRow | undefined;
  return row && toSession(row);
}

/** The account's open sessions. */
export async function openSessionsOf(db: Knex, userId: string): Promise<SessionRecord[]> {
  const rows = (await db('sessions')
    .where({ user_id: userId })
    .where('ends_at', '>', db.fn.now())
    .orderBy('created_at')) as SessionRow[];
  return rows.map(toSession);
}

/** Ends one session ('Sair'): every token of its chain is refused from now on. */
export async function endSession(trx: Knex.Transaction, key: Omit<SessionKey, 'generation'>): Promise<void> {
  if (!isUuid(key.sessionId)) return;
  await trx('sessions').where({ id: key.sessionId, user_id: key.userId }).delete();
}

/** Ends every session of the account (a new password, a deletion). */
export async function endSessionsOf(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx('sessions').where({ user_id: userId }).delete();
}

/** Holds the account's row until the transaction ends: session states are read and published one at a time. */
export async function lockAccount(trx: Knex.Transaction, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  return (await trx('users').select('id').where({ id: userId }).forUpdate().first()) !== undefined;
}
