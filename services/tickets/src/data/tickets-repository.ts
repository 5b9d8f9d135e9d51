import { outboxInsert, type Knex } from '@ticketing/platform';
import {
  sessionsOrWhole,
  type Envelope,
  type ErasedPerson,
  type EventSession,
  type TicketPaymentMethod,
  type TicketTypeLabel,
} from '@ticketing/proto';

export type TicketStatus = 'valid' | 'cancelled';

/** A ticket's admission to one session: when, by whom, at which scanner (null: it did not say). */
export interface SessionAdmission {
  at: Date;
  by: string;
  device: string | null;
}

/** A ticket's admissions by session id, as the row keeps them. */
export type Admissions = Record<string, SessionAdmission>;

/** The admissions as stored: times as JSON text. */
type StoredAdmissions = Record<string, { at: string; by: string; device: string | null }>;

export const toAdmissions = (stored: StoredAdmissions): Admissions =>
  Object.fromEntries(
    Object.entries(stored).map(([session, { at, by, device }]) => [session, { at: new Date(at), by, device }]),
  );

/** A ticket's first admission, to any session; null while it was never admitted. */
export function firstAdmission(admissions: Admissions): Date | null {
  const times = Object.values(admissions).map((admission) => admission.at.getTime());
  return times.length === 0 ? null : new Date(Math.min(...times));
}

export interface Ticket {
  id: string;
  orderId: string;
  orderNumber: string;
  /** Its line of the order (0 on tickets issued before orders had several). */
  itemIndex: number;
  eventId: string;
  userId: string;
  /** Who paid; null on tickets issued before the holder could be someone else (the holder was the buyer). */
  buyerName: string | null;
  buyerEmail: string | null;
  ticketType: TicketTypeLabel | null;
  holderName: string;
  holderEmail: string;
  /** Digits only; null when the order had none. */
  holderCpf: string | null;
  /** Null when order.paid did not say (tickets issued before it did). */
  paymentMethod: TicketPaymentMethod | null;
  eventTitle: string;
  eventDate: Date;
  eventLocation: string;
  /** Its event's sessions, by start. */
  eventSessions: EventSession[];
  version: number;
  status: TicketStatus;
  qrText: string;
  admissions: Admissions;
  createdAt: Date;
}

export type NewTicket = Omit<
  Ticket,
  | 'itemIndex'
  | 'buyerName'
  | 'buyerEmail'
  | 'ticketType'
  | 'holderCpf'
  | 'paymentMethod'
  | 'eventTitle'
  | 'eventDate'
  | 'eventLocation'
  | 'eventSessions'
  | 'version'
  | 'status'
  | 'admissions'
  | 'createdAt'
> & {
  itemIndex?: number;
  buyerName?: string | null;
  buyerEmail?: string | null;
  ticketType?: TicketTypeLabel | null;
  holderCpf?: string | null;
  paymentMethod?: TicketPaymentMethod | null;
  /** Valid unless its order was already refunded. */
  status?: TicketStatus;
};

/** The type columns a ticket row keeps. */
export interface TicketTypeColumns {
  ticket_type_id: string | null;
  ticket_type_name: string | null;
  ticket_type_requires_document: boolean | null;
}

export const TICKET_TYPE_COLUMNS = ['ticket_type_id', 'ticket_type_name', 'ticket_type_requires_document'] as const;

export const toTicketType = (row: TicketTypeColumns): TicketTypeLabel | null =>
  row.ticket_type_id === null
    ? null
    : { id: row.ticket_type_id, name: row.ticket_type_name!, requiresDocument: row.ticket_type_requires_document! };

const ticketTypeColumns = (type: TicketTypeLabel | null | undefined): TicketTypeColumns => ({
  ticket_type_id: type?.id ?? null,
  ticket_type_name: type?.name ?? null,
  ticket_type_requires_document: type?.requiresDocument ?? null,
});

interface TicketRow extends TicketTypeColumns {
  id: string;
  order_id: string;
  order_number: string;
  item_index: number;
  event_id: string;
  user_id: string;
  buyer_name: string | null;
  buyer_email: string | null;
  holder_name: string;
  holder_email: string;
  holder_cpf: string | null;
  payment_method: TicketPaymentMethod | null;
  event_title: string;
  event_date: Date;
  event_location: string;
  event_sessions: EventSession[] | null;
  version: number;
  status: TicketStatus;
  qr_text: string;
  admissions: StoredAdmissions;
  created_at: Date;
}

const toTicket = (row: TicketRow): Ticket => ({
  id: row.id,
  orderId: row.order_id,
  orderNumber: row.order_number,
  itemIndex: row.item_index,
  eventId: row.event_id,
  userId: row.user_id,
  buyerName: row.buyer_name,
  buyerEmail: row.buyer_email,
  ticketType: toTicketType(row),
  holderName: row.holder_name,
  holderEmail: row.holder_email,
  holderCpf: row.holder_cpf,
  paymentMethod: row.payment_method,
  eventTitle: row.event_title,
  eventDate: row.event_date,
  eventLocation: row.event_location,
  eventSessions: sessionsOrWhole({ id: row.event_id, date: row.event_date }, row.event_sessions),
  version: row.version,
  status: row.status,
  qrText: row.qr_text,
  admissions: toAdmissions(row.admissions),
  createdAt: row.created_at,
});

/** The columns of a new ticket. */
export const toTicketRow = (ticket: NewTicket) => ({
  id: ticket.id,
  order_id: ticket.orderId,
  order_number: ticket.orderNumber,
  item_index: ticket.itemIndex ?? 0,
  event_id: ticket.eventId,
  user_id: ticket.userId,
  buyer_name: ticket.buyerName ?? null,
  buyer_email: ticket.buyerEmail ?? null,
  ...ticketTypeColumns(ticket.ticketType),
  holder_name: ticket.holderName,
  holder_email: ticket.holderEmail,
  holder_cpf: ticket.holderCpf ?? null,
  payment_method: ticket.paymentMethod ?? null,
  qr_text: ticket.qrText,
  status: ticket.status ?? 'valid',
});

/** Tickets with their event as this service keeps it (`event_snapshots`: one row an event, one freshness rule). */
const ticketsWithEvent = (db: Knex) =>
  db('tickets')
    .join('event_snapshots as event', 'event.id', 'tickets.event_id')
    .select(
      'tickets.*',
      'event.title as event_title',
      'event.date as event_date',
      'event.location as event_location',
      'event.sessions as event_sessions',
    );

/** The one ticket a statement changed (none when it matched nothing), read again with its event. */
async function readAgain(db: Knex, rows: { id: string }[]): Promise<Ticket | undefined> {
  const [row] = rows;
  return row && (await findTickets(db, [row.id])).get(row.id);
}

/** Stores a new ticket (its event kept beforehand); undefined when its order line already has one. */
export async function insertTicket(trx: Knex.Transaction, ticket: NewTicket): Promise<Ticket | undefined> {
  const rows = await trx('tickets')
    .insert(toTicketRow(ticket))
    .onConflict(['order_id', 'item_index'])
    .ignore()
    .returning('id');
  return readAgain(trx, rows);
}

export async function findTickets(db: Knex, ids: string[]): Promise<Map<string, Ticket>> {
  if (ids.length === 0) return new Map();
  const rows = (await ticketsWithEvent(db).whereIn('tickets.id', ids)) as TicketRow[];
  return new Map(rows.map((row) => [row.id, toTicket(row)]));
}

/** Locks the tickets read, so a decision made on them stands until the caller's transaction ends. */
export async function lockTickets(trx: Knex.Transaction, ids: string[]): Promise<Map<string, Ticket>> {
  if (ids.length === 0) return new Map();
  const rows = (await ticketsWithEvent(trx)
    .whereIn('tickets.id', ids)
    .orderBy('tickets.id')
    .forUpdate('tickets')) as TicketRow[];
  return new Map(rows.map((row) => [row.id, toTicket(row)]));
}

/** An order's tickets, by line. */
export async function findOrderTickets(db: Knex, orderId: string): Promise<Ticket[]> {
  const rows = (await ticketsWithEvent(db)
    .where({ 'tickets.order_id': orderId })
    .orderBy('tickets.item_index')) as TicketRow[];
  return rows.map(toTicket);
}

/** The ticket of one line of an order, locked until the caller's transaction ends. */
export async function lockOrderLine(
  trx: Knex.Transaction,
  orderId: string,
  itemIndex: number,
): Promise<Ticket | undefined> {
  const row = (await ticketsWithEvent(trx)
    .where({ 'tickets.order_id': orderId, 'tickets.item_index': itemIndex })
    .forUpdate('tickets')
    .first()) as TicketRow | undefined;
  return row && toTicket(row);
}

/**
 * What a reissue changes: the holder (and who bought it), the type as the order's line now names it, and the newly
 * signed QR text.
 */
export interface Reissue {
  holder: { name: string; email: string; cpf: string | null };
  /** Kept on tickets issued before lines, whose holder was the buyer until now. */
  buyer: { name: string; email: string };
  ticketType: TicketTypeLabel;
  version: number;
  qrText: string;
}

/** Gives a ticket its new holder and QR version (the QR codes before it no longer admit); the ticket as it is now. */
export async function reissueTicket(trx: Knex.Transaction, ticketId: string, reissue: Reissue): Promise<Ticket> {
  const rows = await trx('tickets')
    .where({ id: ticketId })
    .update({
      holder_name: reissue.holder.name,
      holder_email: reissue.holder.email,
      holder_cpf: reissue.holder.cpf,
      buyer_name: reissue.buyer.name,
      buyer_email: reissue.buyer.email,
      ...ticketTypeColumns(reissue.ticketType),
      version: reissue.version,
      qr_text: reissue.qrText,
    })
    .returning('id');
  return (await readAgain(trx, rows))!;
}

/** The valid tickets held by whoever signs in with `email` (case aside), soonest event first. */
export async function ticketsHeldBy(db: Knex, email: string): Promise<Ticket[]> {
  const rows = (await ticketsWithEvent(db)
    .whereRaw('lower(tickets.holder_email) = ?', [email.toLowerCase()])
    .andWhere('tickets.status', 'valid')
    .orderBy('event.date')
    .orderBy('tickets.order_number')
    .orderBy('tickets.item_index')) as TicketRow[];
  return rows.map(toTicket);
}

export interface Admission {
  ticketId: string;
  orderId: string;
  eventId: string;
  sessionId: string;
  holderName: string;
  ticketType: TicketTypeLabel | null;
  eventTitle: string;
  usedAt: Date;
}

/** The admission to add to a row's `admissions` (SQL): the session's key, unless the row has it already. */
const ADMIT = (session: string, at: string, by: string, device: string) =>
  `admissions = tickets.admissions || jsonb_build_object(${session}::text,
     jsonb_build_object('at', ${at}, 'by', ${by}, 'device', nullif(${device}, '')))`;

/** The conditions a ticket must meet to be admitted to a reading's session (SQL). */
const ADMISSIBLE = (reading: string) =>
  `tickets.id = ${reading}.ticket_id and tickets.event_id = ${reading}.event_id and tickets.version = ${reading}.version
   and tickets.status = 'valid' and tickets.admissions -> ${reading}.session_id::text is null`;

/** A reading that may admit its ticket to a session: what it claims, and who read it where. */
export interface AdmittingReading {
  ticketId: string;
  eventId: string;
  sessionId: string;
  version: number;
  scannedBy: string;
  deviceId: string | null;
}

/** The readings as arrays to `unnest` (SQL and its bindings), in the columns `ADMISSIBLE` and `ADMIT` read. */
const READING_ARRAYS = '?::uuid[], ?::uuid[], ?::uuid[], ?::int[], ?::uuid[], ?::text[]';
const READING_COLUMNS = 'ticket_id, event_id, session_id, version, scanned_by, device_id';
/**
 * Readings in ticket id order: a statement admitting several tickets of one order then locks them in the order a
 * withdrawal locks an order's tickets (cancelOrderTicketsUnlessAdmitted), so neither waits on the other in a cycle.
 */
const byTicketId = <R extends AdmittingReading>(readings: R[]): R[] =>
  [...readings].sort((a, b) => (a.ticketId < b.ticketId ? -1 : a.ticketId > b.ticketId ? 1 : 0));

const readingArrays = (readings: AdmittingReading[]) => [
  readings.map((reading) => reading.ticketId),
  readings.map((reading) => reading.eventId),
  readings.map((reading) => reading.sessionId),
  readings.map((reading) => reading.version),
  readings.map((reading) => reading.scannedBy),
  // No device is '' in the array (a device id is never empty): a text[] binding holds no nulls.
  readings.map((reading) => reading.deviceId ?? ''),
];

/**
 * Admits a group of tickets, each exactly once to its session: one conditional statement adds the session to a
 * ticket only if it is the signed version, still valid and not admitted to that session yet. Concurrent scans of one
 * ticket queue on its row; only the first one matches. Each ticket appears at most once in a group.
 */
export async function admitTickets(trx: Knex.Transaction, readings: AdmittingReading[]): Promise<Admission[]> {
  if (readings.length === 0) return [];
  const scans = byTicketId(readings);
  const { rows } = await trx.raw<{
    rows: (Pick<TicketRow, 'id' | 'order_id' | 'event_id' | 'holder_name' | 'event_title'> &
      TicketTypeColumns & {
        session_id: string;
        used_at: Date;
      })[];
  }>(
    `update tickets set ${ADMIT('scan.session_id', 'now()', 'scan.scanned_by', 'scan.device_id')}
     from unnest(${READING_ARRAYS}) as scan(${READING_COLUMNS}), event_snapshots as event
     where event.id = tickets.event_id and ${ADMISSIBLE('scan')}
     returning tickets.id, tickets.order_id, tickets.event_id, scan.session_id, tickets.holder_name,
       ${TICKET_TYPE_COLUMNS.map((column) => `tickets.${column}`).join(', ')}, event.title as event_title,
       now() as used_at`,
    readingArrays(scans),
  );
  return rows.map((row) => ({
    ticketId: row.id,
    orderId: row.order_id,
    eventId: row.event_id,
    sessionId: row.session_id,
    holderName: row.holder_name,
    ticketType: toTicketType(row),
    eventTitle: row.event_title,
    usedAt: row.used_at,
  }));
}

/** A reading the door expects to admit, with its scan record and the envelope announcing the admission. */
export interface ExpectedAdmission extends AdmittingReading {
  doorEventId: string | null;
  staffName: string;
  envelope: Envelope;
}

/**
 * Admits tickets, records their readings and puts their ticket.checked-in envelopes in the outbox in one statement,
 * committed on its own: one round trip for what would otherwise be a transaction of five. Each ticket is admitted
 * only if it is still the signed version, valid and not admitted to the reading's session yet; a reading whose
 * ticket was not (another door was quicker) writes nothing. Resolves to the ids of the tickets admitted.
 */
export async function admitAndAnnounce(db: Knex, usedAt: Date, expected: ExpectedAdmission[]): Promise<Set<string>> {
  if (expected.length === 0) return new Set();
  const readings = byTicketId(expected);
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `with reading as (
       select * from unnest(${READING_ARRAYS}, ?::text[], ?::text[], ?::jsonb[])
         as reading(${READING_COLUMNS}, door_event_id, staff_name, envelope)
     ), admitted as (
       update tickets set ${ADMIT('reading.session_id', '?::timestamptz', 'reading.scanned_by', 'reading.device_id')}
       from reading
       where ${ADMISSIBLE('reading')}
       returning tickets.id
     ), recorded as (
       insert into scans (ticket_id, scanned_by, code, door_event_id, session_id, device_id, staff_name)
       select reading.ticket_id, reading.scanned_by, 'valid', nullif(reading.door_event_id, '')::uuid,
         reading.session_id, nullif(reading.device_id, ''), reading.staff_name
       from reading join admitted on admitted.id = reading.ticket_id
     ), announced as (
       ${outboxInsert('(select reading.envelope from reading join admitted on admitted.id = reading.ticket_id) as a')}
     )
     select id from admitted`,
    [
      ...readingArrays(readings),
      // A text[] binding holds no nulls: none is ''.
      readings.map((reading) => reading.doorEventId ?? ''),
      readings.map((reading) => reading.staffName),
      readings.map((reading) => JSON.stringify(reading.envelope)),
      usedAt,
    ],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * Sets who admitted tickets to sessions and when, on rows the caller has locked and decided on: each ticket's
 * `admissions` replace those of the same sessions it had.
 */
export async function setAdmissions(
  trx: Knex.Transaction,
  changes: { ticketId: string; admissions: Admissions }[],
): Promise<void> {
  if (changes.length === 0) return;
  await trx.raw(
    `update tickets set admissions = tickets.admissions || change.admissions
     from unnest(?::uuid[], ?::jsonb[]) as change(ticket_id, admissions)
     where tickets.id = change.ticket_id`,
    [changes.map((change) => change.ticketId), changes.map((change) => JSON.stringify(change.admissions))],
  );
}

/** What a reset undid: the ticket's admissions to the sessions it named, and those it still has. */
export interface UndoneAdmissions {
  ticket: Ticket;
  undone: Admissions;
}

/**
 * Makes a valid ticket of an order (`ticketId`, else its first) admissible again to `sessionId` (to every session when
 * null), on its row locked until the transaction ends; undefined when there is no such valid ticket. `undone` is
 * empty when there was nothing to undo.
 */
export async function clearAdmissions(
  trx: Knex.Transaction,
  { orderId, ticketId }: { orderId: string; ticketId?: string },
  sessionId: string | null,
): Promise<UndoneAdmissions | undefined> {
  const [locked] = (await trx('tickets')
    .where({ order_id: orderId, status: 'valid', ...(ticketId ? { id: ticketId } : {}) })
    .orderBy('item_index')
    .forUpdate()
    .select('id')) as {
    id: string;
  }[];
  const ticket = locked && (await findTickets(trx, [locked.id])).get(locked.id);
  if (!ticket) return undefined;
  const undone = Object.fromEntries(
    Object.entries(ticket.admissions).filter(([session]) => sessionId === null || session === sessionId),
  );
  if (Object.keys(undone).length === 0) return { ticket, undone };
  const [row] = (await trx('tickets')
    .where({ id: ticket.id })
    .update({ admissions: trx.raw('admissions - ?::text[]', [Object.keys(undone)]) })
    .returning('admissions')) as { admissions: StoredAdmissions }[];
  return { ticket: { ...ticket, admissions: toAdmissions(row!.admissions) }, undone };
}

/**
 * Makes the issuing and the cancelling of one order's ticket wait for each other until the caller's transaction ends,
 * so neither decides on what the other has not committed yet (the ticket may not exist when its order is refunded).
 */
export async function lockOrderTicket(trx: Knex.Transaction, orderId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`ticket-order:${orderId}`]);
}

/** Records that an order's ticket must not stand; false when it was recorded already. */
export async function recordCancellation(trx: Knex.Transaction, orderId: string, reason: string): Promise<boolean> {
  const rows = await trx('order_cancellations')
    .insert({ order_id: orderId, reason })
    .onConflict('order_id')
    .ignore()
    .returning('order_id');
  return rows.length === 1;
}

export async function isCancelledOrder(trx: Knex.Transaction, orderId: string): Promise<boolean> {
  return (await trx('order_cancellations').where({ order_id: orderId }).first()) !== undefined;
}

/** Cancels an order's valid tickets; the ids of those cancelled (none: not issued yet, or cancelled already). */
export async function cancelOrderTickets(trx: Knex.Transaction, orderId: string): Promise<string[]> {
  const rows = (await trx('tickets')
    .where({ order_id: orderId, status: 'valid' })
    .update({ status: 'cancelled' })
    .returning('id')) as { id: string }[];
  return rows.map((row) => row.id);
}

/**
 * Voids an order's valid tickets unless the door admitted any of them. Their rows are locked first: the door's
 * admission (admitTickets) updates a row conditionally, so it either committed before (and is read here) or waits and
 * then finds the ticket cancelled. The order's tickets, by line, as they are after the decision.
 */
export async function cancelOrderTicketsUnlessAdmitted(trx: Knex.Transaction, orderId: string): Promise<Ticket[]> {
  const locked = (await trx('tickets')
    .where({ order_id: orderId, status: 'valid' })
    .orderBy('id')
    .forUpdate()
    .select('id', 'admissions')) as { id: string; admissions: StoredAdmissions }[];
  if (locked.length > 0 && locked.every((row) => Object.keys(row.admissions).length === 0))
    await trx('tickets')
      .whereIn(
        'id',
        locked.map((row) => row.id),
      )
      .update({ status: 'cancelled' });
  return findOrderTickets(trx, orderId);
}

/**
 * Replaces the holder on every ticket a user bought and holds, forgetting their CPF, and the buyer on every ticket
 * they bought; those they bought for others keep their holders. The number of tickets whose holder was erased.
 */
export async function eraseHolder(trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> {
  const held = await trx('tickets')
    .where({ user_id: userId })
    // No buyer kept: issued before holders, to the buyer.
    .andWhere((where) => where.whereNull('buyer_email').orWhereRaw('lower(holder_email) = lower(buyer_email)'))
    .update({ holder_name: erased.name, holder_email: erased.email, holder_cpf: null });
  await trx('tickets')
    .where({ user_id: userId })
    .whereNotNull('buyer_email')
    .update({ buyer_name: erased.name, buyer_email: erased.email });
  return held;
}
