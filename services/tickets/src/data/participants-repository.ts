import type { Knex } from '@ticketing/platform';
import type { TicketHolder, TicketPaymentMethod } from '@ticketing/proto';
import { HOLDER_COLUMNS, toHolder, whereHolderMatches, type HolderRow, type HolderSearch } from './door-repository.ts';
import type { Admissions, TicketStatus } from './tickets-repository.ts';

/** Which of an event's tickets: those a look-up finds, of a status, checked in (to `sessionId`, or to any) or not. */
export interface ParticipantsWhere {
  eventId: string;
  search?: HolderSearch;
  status?: TicketStatus;
  checkedIn?: boolean;
  sessionId?: string;
}

/** A participant as stored: whom the ticket names (the CPF whole, masked only in views), and where it stands. */
export interface ParticipantRow extends Omit<TicketHolder, 'cpf' | 'status'> {
  holderCpf: string | null;
  paymentMethod: TicketPaymentMethod | null;
  status: TicketStatus;
  admissions: Admissions;
}

function matching(db: Knex, { eventId, search, status, checkedIn, sessionId }: ParticipantsWhere): Knex.QueryBuilder {
  const query = db('tickets').where({ event_id: eventId });
  if (search) whereHolderMatches(query, search);
  if (status) query.andWhere({ status });
  if (checkedIn !== undefined) {
    const admitted = sessionId
      ? db.raw('admissions -> ?::text is not null', [sessionId])
      : db.raw(`admissions <> '{}'::jsonb`);
    query.andWhere(checkedIn ? admitted : db.raw('not ?', [admitted]));
  }
  return query;
}

/** The tickets that match, holder names in alphabetical order; a page of them when `page` is given. */
export async function listParticipants(
  db: Knex,
  where: ParticipantsWhere,
  page?: { limit: number; offset: number },
): Promise<ParticipantRow[]> {
  const query = matching(db, where)
    .select(...HOLDER_COLUMNS, 'payment_method')
    .orderBy('holder_name')
    .orderBy('id');
  if (page) query.limit(page.limit).offset(page.offset);
  const rows = (await query) as (HolderRow & { payment_method: TicketPaymentMethod | null })[];
  return rows.map((row) => ({ ...toHolder(row), paymentMethod: row.payment_method }));
}

export async function countParticipants(db: Knex, where: ParticipantsWhere): Promise<number> {
  const [row] = (await matching(db, where).count({ count: '*' })) as { count: string }[];
  return Number(row!.count);
}

/** The whole event's tickets: all of them, those checked in (to any session), those cancelled. */
export async function participantTotals(
  db: Knex,
  eventId: string,
): Promise<{ tickets: number; checkedIn: number; cancelled: number }> {
  const [row] = (await db('tickets')
    .where({ event_id: eventId })
    .select(
      db.raw('count(*)::int as tickets'),
      db.raw(`(count(*) filter (where admissions <> '{}'::jsonb))::int as checked_in`),
      db.raw(`(count(*) filter (where status = 'cancelled'))::int as cancelled`),
    )) as { tickets: number; checked_in: number; cancelled: number }[];
  return { tickets: row!.tickets, checkedIn: row!.checked_in, cancelled: row!.cancelled };
}

/** The event's valid tickets admitted to each session, by session id. */
export async function checkedInBySession(db: Knex, eventId: string): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: { session_id: string; count: number }[] }>(
    `select admission.key as session_id, count(*)::int as count
       from tickets, jsonb_object_keys(tickets.admissions) as admission(key)
      where tickets.event_id = ? and tickets.status = 'valid'
      group by admission.key`,
    [eventId],
  );
  return new Map(rows.map((row) => [row.session_id, row.count]));
}
