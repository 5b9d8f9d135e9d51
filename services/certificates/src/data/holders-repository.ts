import type { Knex } from '@ticketing/platform';
import type { ErasedPerson } from '@ticketing/proto';

export interface HolderRow {
  ticket_id: string;
  order_id: string;
  user_id: string;
  event_id: string;
  name: string;
  email: string;
  buyer_holds: boolean;
}

/**
 * A ticket's holder as the ticket names them, never to be certified when its order was refunded before the ticket
 * was announced. A ticket issued again to a new holder names them from now on (unless it may no longer be
 * certified); a repeated announcement changes nothing.
 */
export async function saveHolder(trx: Knex.Transaction, holder: HolderRow & { revoked_at?: Date }): Promise<void> {
  const refunded = await trx('refunded_orders').where({ order_id: holder.order_id }).first();
  await trx('holders')
    .insert({ ...holder, ...(refunded ? { revoked_at: trx.fn.now() } : {}) })
    .onConflict('ticket_id')
    .merge(['name', 'email', 'buyer_holds'])
    .whereNull('holders.revoked_at');
}

export async function admit(trx: Knex.Transaction, ticketId: string, sessionId: string, usedAt: Date): Promise<void> {
  await trx('admissions')
    .insert({ ticket_id: ticketId, session_id: sessionId, used_at: usedAt })
    .onConflict(['ticket_id', 'session_id'])
    .ignore();
}

/** Undoes an admission to one session, or to every session (`sessionId` null). */
export async function unadmit(trx: Knex.Transaction, ticketId: string, sessionId: string | null): Promise<void> {
  const query = trx('admissions').where({ ticket_id: ticketId });
  if (sessionId !== null) query.andWhere({ session_id: sessionId });
  await query.delete();
}

/**
 * The holders of an event still to be certified (not revoked, no certificate yet), each with the sessions they
 * were admitted to.
 */
export async function uncertifiedHolders(db: Knex, eventId: string): Promise<(HolderRow & { sessions: string[] })[]> {
  return db('holders as h')
    .where({ 'h.event_id': eventId })
    .whereNull('h.revoked_at')
    .whereNotExists((query) => query.select(1).from('certificates as c').whereRaw('c.ticket_id = h.ticket_id'))
    .select(
      'h.*',
      db.raw(
        `coalesce((select array_agg(a.session_id::text) from admissions a where a.ticket_id = h.ticket_id), '{}') as sessions`,
      ),
    );
}

/** Marks an order refunded, and its holders with it: never certified from now on. */
export async function revokeOrderHolders(trx: Knex.Transaction, orderId: string): Promise<void> {
  await trx('refunded_orders').insert({ order_id: orderId }).onConflict('order_id').ignore();
  await trx('holders').where({ order_id: orderId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
}

/**
 * Replaces the person on the tickets an account holds and marks them never to be certified; those it bought for
 * others stay theirs.
 */
export async function eraseHolders(trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> {
  return trx('holders')
    .where({ user_id: userId, buyer_holds: true })
    .update({ name: erased.name, email: erased.email, revoked_at: trx.raw('coalesce(revoked_at, now())') });
}

/** A ticket's holder, locked for the rest of the transaction. */
export async function lockHolder(trx: Knex.Transaction, ticketId: string): Promise<void> {
  await trx('holders').where({ ticket_id: ticketId }).forUpdate().first();
}

export async function correctHolderName(trx: Knex.Transaction, ticketId: string, name: string): Promise<void> {
  await trx('holders').where({ ticket_id: ticketId }).update({ name });
}
