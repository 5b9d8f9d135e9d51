import { containsPattern, foldForSearch, foldedColumn, type Knex } from '@ticketing/platform';
import type { TicketTypeLabel } from '@ticketing/proto';
import {
  TICKET_TYPE_COLUMNS,
  toAdmissions,
  toTicketType,
  type Admissions,
  type TicketStatus,
  type TicketTypeColumns,
} from './tickets-repository.ts';

/** A ticket as a scanner keeps it. */
export interface DoorTicketRow {
  id: string;
  orderId: string;
  version: number;
  holderName: string;
  ticketType: TicketTypeLabel | null;
  status: TicketStatus;
  admissions: Admissions;
}

/**
 * The highest revision below which every revision drawn for the event is committed. Writers hold the event's
 * revision lock (shared, taken by the tickets trigger before drawing) until they commit; taking it exclusively
 * waits for those in flight, and any writer after it draws a higher revision. Without it a transaction that drew a
 * lower revision could commit after a higher one was read, and a scanner asking after the higher one would miss it.
 */
export async function committedRevision(db: Knex, eventId: string): Promise<string> {
  return db.transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(hashtext('ticket-revision:' || current_schema() || ':' || ?))`, [
      eventId,
    ]);
    // As text: revisions are bigints, beyond what a JavaScript number holds exactly.
    const { rows } = (await trx.raw('select last_value::text, is_called from ticket_revisions')) as {
      rows: { last_value: string; is_called: boolean }[];
    };
    const [sequence] = rows;
    return sequence!.is_called ? sequence!.last_value : '0';
  });
}

/** The event's tickets whose revision is in (`after`, `upTo`], oldest change first. */
export async function doorTicketsBetween(
  db: Knex,
  eventId: string,
  after: string | undefined,
  upTo: string,
): Promise<DoorTicketRow[]> {
  const query = db('tickets')
    .select('id', 'order_id', 'version', 'holder_name', ...TICKET_TYPE_COLUMNS, 'status', 'admissions')
    .where({ event_id: eventId })
    .andWhere('revision', '<=', upTo)
    .orderBy('revision');
  if (after !== undefined) query.andWhere('revision', '>', after);
  const rows = (await query) as (TicketTypeColumns & {
    id: string;
    order_id: string;
    version: number;
    holder_name: string;
    status: TicketStatus;
    admissions: HolderRow['admissions'];
  })[];
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    version: row.version,
    holderName: row.holder_name,
    ticketType: toTicketType(row),
    status: row.status,
    admissions: toAdmissions(row.admissions),
  }));
}

export interface ConflictRow {
  ticketId: string;
  sessionId: string;
  holderName: string;
  keptDevice: string;
  keptAt: Date;
  otherDevice: string;
  otherAt: Date;
}

export async function insertConflicts(
  trx: Knex.Transaction,
  conflicts: (Omit<ConflictRow, 'holderName'> & { eventId: string })[],
): Promise<void> {
  if (conflicts.length === 0) return;
  await trx('door_conflicts').insert(
    conflicts.map((conflict) => ({
      ticket_id: conflict.ticketId,
      event_id: conflict.eventId,
      session_id: conflict.sessionId,
      kept_device: conflict.keptDevice,
      kept_at: conflict.keptAt,
      other_device: conflict.otherDevice,
      other_at: conflict.otherAt,
    })),
  );
}

/** The event's conflicts a device took part in (kept or not), oldest first; only of `ticketIds` when given. */
export async function deviceConflicts(
  db: Knex,
  eventId: string,
  deviceId: string,
  ticketIds?: string[],
): Promise<ConflictRow[]> {
  const query = db('door_conflicts as c')
    .join('tickets as t', 't.id', 'c.ticket_id')
    .select(
      'c.ticket_id',
      'c.session_id',
      't.holder_name',
      'c.kept_device',
      'c.kept_at',
      'c.other_device',
      'c.other_at',
    )
    .where('c.event_id', eventId)
    .andWhere((where) => where.where('c.kept_device', deviceId).orWhere('c.other_device', deviceId))
    .orderBy('c.created_at')
    .orderBy('c.id');
  if (ticketIds) query.whereIn('c.ticket_id', ticketIds);
  const rows = (await query) as {
    ticket_id: string;
    session_id: string;
    holder_name: string;
    kept_device: string;
    kept_at: Date;
    other_device: string;
    other_at: Date;
  }[];
  return rows.map((row) => ({
    ticketId: row.ticket_id,
    sessionId: row.session_id,
    holderName: row.holder_name,
    keptDevice: row.kept_device,
    keptAt: row.kept_at,
    otherDevice: row.other_device,
    otherAt: row.other_at,
  }));
}

/** Makes one device's syncs wait for each other, so a batch sent twice at once is recorded once. */
export async function lockDevice(trx: Knex.Transaction, deviceId: string): Promise<void> {
  await trx.raw(`select pg_advisory_xact_lock(hashtext('door-device:' || current_schema() || ':' || ?))`, [deviceId]);
}

/**
 * What the participants' search typed: part of a name, e-mail or order number, and the CPF digits when it could be
 * a CPF.
 */
export interface HolderSearch {
  text: string;
  cpfDigits: string | null;
}

/**
 * Keeps the tickets whose holder name, e-mail or order number contains `text` (case and accents aside), or whose
 * CPF starts with `cpfDigits`: the back office's participants list.
 */
export function whereHolderMatches(query: Knex.QueryBuilder, { text, cpfDigits }: HolderSearch): Knex.QueryBuilder {
  const pattern = containsPattern(foldForSearch(text));
  return query.andWhere((where) => {
    where
      .whereRaw(`${foldedColumn('holder_name')} like ?`, [pattern])
      .orWhereRaw('lower(holder_email) like ?', [pattern])
      .orWhereRaw('lower(order_number) like ?', [pattern]);
    if (cpfDigits) where.orWhere('holder_cpf', 'like', `${cpfDigits}%`);
  });
}

/**
 * What the door's look-up may match: a whole CPF (digits), a whole e-mail, or the words of a name (each contained
 * in it, folded) or a whole order number.
 */
export type DoorLookUp = { cpf: string } | { email: string } | { words: string[]; orderNumber: string };

/** The event's tickets the door's look-up finds; names in alphabetical order. */
export async function searchTickets(
  db: Knex,
  eventId: string,
  lookUp: DoorLookUp,
  limit: number,
): Promise<ReturnType<typeof toHolder>[]> {
  const query = db('tickets')
    .select(...HOLDER_COLUMNS)
    .where({ event_id: eventId });
  if ('cpf' in lookUp) query.andWhere({ holder_cpf: lookUp.cpf });
  else if ('email' in lookUp) query.andWhereRaw('lower(holder_email) = ?', [lookUp.email]);
  else
    query.andWhere((where) => {
      where
        .where((name) => {
          for (const word of lookUp.words)
            name.andWhereRaw(`${foldedColumn('holder_name')} like ?`, [containsPattern(word)]);
        })
        .orWhereRaw('lower(order_number) = ?', [lookUp.orderNumber]);
    });
  const rows = (await query.orderBy('holder_name').orderBy('id').limit(limit)) as HolderRow[];
  return rows.map(toHolder);
}

/** A ticket's holder and where it stands, as the door's look-up and the participants' list read them. */
export const HOLDER_COLUMNS = [
  'id',
  'order_id',
  'order_number',
  'holder_name',
  'holder_email',
  'holder_cpf',
  ...TICKET_TYPE_COLUMNS,
  'status',
  'admissions',
] as const;

export interface HolderRow extends TicketTypeColumns {
  id: string;
  order_id: string;
  order_number: string;
  holder_name: string;
  holder_email: string;
  holder_cpf: string | null;
  status: TicketStatus;
  admissions: Parameters<typeof toAdmissions>[0];
}

export const toHolder = (row: HolderRow) => ({
  ticketId: row.id,
  orderId: row.order_id,
  orderNumber: row.order_number,
  ticketType: toTicketType(row),
  holderName: row.holder_name,
  holderEmail: row.holder_email,
  holderCpf: row.holder_cpf,
  status: row.status,
  admissions: toAdmissions(row.admissions),
});

/** The current QR text of a ticket of `eventId`; undefined when the event has no such ticket. */
export async function currentQrText(db: Knex, ticketId: string, eventId: string): Promise<string | undefined> {
  const row = (await db('tickets').first('qr_text').where({ id: ticketId, event_id: eventId.toLowerCase() })) as
    { qr_text: string } | undefined;
  return row?.qr_text;
}
