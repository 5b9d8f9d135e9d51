import { outboxInsert, type Knex } from '@ticketing/platform';
import type { Envelope, ErasedPerson, TicketPaymentMethod } from '@ticketing/proto';

export type TicketStatus = 'valid' | 'cancelled';

export interface Ticket {
  id: string;
  orderId: string;
  orderNumber: string;
  eventId: string;
  userId: string;
  holderName: string;
  holderEmail: string;
  /** Digits only; null when the order had none. */
  holderCpf: string | null;
  /** Null when order.paid did not say (tickets issued before it did). */
  paymentMethod: TicketPaymentMethod | null;
  eventTitle: string;
  eventDate: Date;
  eventLocation: string;
  version: number;
  status: TicketStatus;
  qrText: string;
  usedAt: Date | null;
  usedBy: string | null;
  /** The scanner device that admitted it, when it said. */
  usedDevice: string | null;
  createdAt: Date;
}

export type NewTicket = Omit<
  Ticket,
  | 'holderCpf'
  | 'paymentMethod'
  | 'eventTitle'
  | 'eventDate'
  | 'eventLocation'
  | 'version'
  | 'status'
  | 'usedAt'
  | 'usedBy'
  | 'usedDevice'
  | 'createdAt'
> & {
  holderCpf?: string | null;
  paymentMethod?: TicketPaymentMethod | null;
  /** Valid unless its order was already refunded. */
  status?: TicketStatus;
};

interface TicketRow {
  id: string;
  order_id: string;
  order_number: string;
  event_id: string;
  user_id: string;
  holder_name: string;
  holder_email: string;
  holder_cpf: string | null;
  payment_method: TicketPaymentMethod | null;
  event_title: string;
  event_date: Date;
  event_location: string;
  version: number;
  status: TicketStatus;
  qr_text: string;
  used_at: Date | null;
  used_by: string | null;
  used_device: string | null;
  created_at: Date;
}

const toTicket = (row: TicketRow): Ticket => ({
  id: row.id,
  orderId: row.order_id,
  orderNumber: row.order_number,
  eventId: row.event_id,
  userId: row.user_id,
  holderName: row.holder_name,
  holderEmail: row.holder_email,
  holderCpf: row.holder_cpf,
  paymentMethod: row.payment_method,
  eventTitle: row.event_title,
  eventDate: row.event_date,
  eventLocation: row.event_location,
  version: row.version,
  status: row.status,
  qrText: row.qr_text,
  usedAt: row.used_at,
  usedBy: row.used_by,
  usedDevice: row.used_device,
  createdAt: row.created_at,
});

/** The columns of a new ticket. */
export const toTicketRow = (ticket: NewTicket) => ({
  id: ticket.id,
  order_id: ticket.orderId,
  order_number: ticket.orderNumber,
  event_id: ticket.eventId,
  user_id: ticket.userId,
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
    .select('tickets.*', 'event.title as event_title', 'event.date as event_date', 'event.location as event_location');

/** The one ticket a statement changed (none when it matched nothing), read again with its event. */
async function readAgain(db: Knex, rows: { id: string }[]): Promise<Ticket | undefined> {
  const [row] = rows;
  return row && (await findTickets(db, [row.id])).get(row.id);
}

/** Stores a new ticket (its event kept beforehand); undefined when the order already has one. */
export async function insertTicket(trx: Knex.Transaction, ticket: NewTicket): Promise<Ticket | undefined> {
  const rows = await trx('tickets').insert(toTicketRow(ticket)).onConflict('order_id').ignore().returning('id');
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

export async function findTicketByOrder(db: Knex, orderId: string): Promise<Ticket | undefined> {
  const row = (await ticketsWithEvent(db).where({ 'tickets.order_id': orderId }).first()) as TicketRow | undefined;
  return row && toTicket(row);
}

export interface Admission {
  ticketId: string;
  orderId: string;
  eventId: string;
  holderName: string;
  eventTitle: string;
  usedAt: Date;
}

/**
 * Admits a group of tickets, each exactly once: one conditional statement marks a ticket used only if it is the
 * signed version, still valid and not used yet. Concurrent scans of one ticket queue on its row; only the first
 * one matches. Each ticket appears at most once in a group.
 */
export async function admitTickets(
  trx: Knex.Transaction,
  scans: { ticketId: string; eventId: string; version: number; scannedBy: string; deviceId: string | null }[],
): Promise<Admission[]> {
  if (scans.length === 0) return [];
  const { rows } = await trx.raw<{
    rows: Pick<TicketRow, 'id' | 'order_id' | 'event_id' | 'holder_name' | 'event_title' | 'used_at'>[];
  }>(
    `update tickets set used_at = now(), used_by = scan.scanned_by, used_device = nullif(scan.device_id, '')
     from unnest(?::uuid[], ?::uuid[], ?::int[], ?::uuid[], ?::text[])
       as scan(ticket_id, event_id, version, scanned_by, device_id), event_snapshots as event
     where event.id = tickets.event_id and tickets.id = scan.ticket_id and tickets.event_id = scan.event_id and tickets.version = scan.version
       and tickets.status = 'valid' and tickets.used_at is null
     returning tickets.id, tickets.order_id, tickets.event_id, tickets.holder_name, event.title as event_title,
       tickets.used_at`,
    [
      scans.map((scan) => scan.ticketId),
      scans.map((scan) => scan.eventId),
      scans.map((scan) => scan.version),
      scans.map((scan) => scan.scannedBy),
      // No device is '' in the array (a device id is never empty): a text[] binding holds no nulls.
      scans.map((scan) => scan.deviceId ?? ''),
    ],
  );
  return rows.map((row) => ({
    ticketId: row.id,
    orderId: row.order_id,
    eventId: row.event_id,
    holderName: row.holder_name,
    eventTitle: row.event_title,
    usedAt: row.used_at!,
  }));
}

/** A reading the door expects to admit, with its scan record and the envelope announcing the admission. */
export interface ExpectedAdmission {
  ticketId: string;
  eventId: string;
  version: number;
  scannedBy: string;
  deviceId: string | null;
  doorEventId: string | null;
  staffName: string;
  envelope: Envelope;
}

/**
 * Admits tickets, records their readings and puts their ticket.checked-in envelopes in the outbox in one statement,
 * committed on its own: one round trip for what would otherwise be a transaction of five. Each ticket is admitted
 * only if it is still the signed version, valid and unused; a reading whose ticket was not (another door was
 * quicker) writes nothing. Resolves to the ids of the tickets admitted.
 */
export async function admitAndAnnounce(db: Knex, usedAt: Date, readings: ExpectedAdmission[]): Promise<Set<string>> {
  if (readings.length === 0) return new Set();
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `with reading as (
       select * from unnest(?::uuid[], ?::uuid[], ?::int[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::jsonb[])
         as reading(ticket_id, event_id, version, scanned_by, device_id, door_event_id, staff_name, envelope)
     ), admitted as (
       update tickets set used_at = ?, used_by = reading.scanned_by, used_device = nullif(reading.device_id, '')
       from reading
       where tickets.id = reading.ticket_id and tickets.event_id = reading.event_id
         and tickets.version = reading.version and tickets.status = 'valid' and tickets.used_at is null
       returning tickets.id
     ), recorded as (
       insert into scans (ticket_id, scanned_by, code, door_event_id, device_id, staff_name)
       select reading.ticket_id, reading.scanned_by, 'valid', nullif(reading.door_event_id, '')::uuid,
         nullif(reading.device_id, ''), reading.staff_name
       from reading join admitted on admitted.id = reading.ticket_id
     ), announced as (
       ${outboxInsert('(select reading.envelope from reading join admitted on admitted.id = reading.ticket_id) as a')}
     )
     select id from admitted`,
    [
      readings.map((reading) => reading.ticketId),
      readings.map((reading) => reading.eventId),
      readings.map((reading) => reading.version),
      readings.map((reading) => reading.scannedBy),
      // A text[] binding holds no nulls: none is ''.
      readings.map((reading) => reading.deviceId ?? ''),
      readings.map((reading) => reading.doorEventId ?? ''),
      readings.map((reading) => reading.staffName),
      readings.map((reading) => JSON.stringify(reading.envelope)),
      usedAt,
    ],
  );
  return new Set(rows.map((row) => row.id));
}

export interface UndoneUse {
  ticketId: string;
  orderId: string;
  previousUsedAt: Date;
  previousUsedBy: string;
}

/** Sets who admitted tickets and when, on rows the caller has locked and decided on. */
export async function setAdmissions(
  trx: Knex.Transaction,
  admissions: { ticketId: string; usedAt: Date; usedBy: string; deviceId: string }[],
): Promise<void> {
  if (admissions.length === 0) return;
  await trx.raw(
    `update tickets
     set used_at = admission.used_at, used_by = admission.used_by, used_device = admission.device_id
     from unnest(?::uuid[], ?::timestamptz[], ?::uuid[], ?::text[]) as admission(ticket_id, used_at, used_by, device_id)
     where tickets.id = admission.ticket_id`,
    [
      admissions.map((admission) => admission.ticketId),
      admissions.map((admission) => admission.usedAt.toISOString()),
      admissions.map((admission) => admission.usedBy),
      admissions.map((admission) => admission.deviceId),
    ],
  );
}

/** Makes an order's used ticket admissible again; undefined when it has no valid ticket or it is not used. */
export async function clearUse(trx: Knex.Transaction, orderId: string): Promise<UndoneUse | undefined> {
  const { rows } = (await trx.raw(
    `with previous as (
       select id, used_at, used_by from tickets where order_id = ? and status = 'valid' for update
     )
     update tickets set used_at = null, used_by = null, used_device = null
     from previous
     where tickets.id = previous.id and previous.used_at is not null
     returning tickets.id, tickets.order_id, previous.used_at, previous.used_by`,
    [orderId],
  )) as { rows: { id: string; order_id: string; used_at: Date; used_by: string }[] };
  const [row] = rows;
  return row && { ticketId: row.id, orderId: row.order_id, previousUsedAt: row.used_at, previousUsedBy: row.used_by };
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

/** Cancels an order's valid ticket; undefined when it has none (not issued yet, or cancelled already). */
export async function cancelTicket(trx: Knex.Transaction, orderId: string): Promise<Ticket | undefined> {
  const rows = await trx('tickets')
    .where({ order_id: orderId, status: 'valid' })
    .update({ status: 'cancelled' })
    .returning('id');
  return readAgain(trx, rows);
}

/**
 * Voids an order's ticket unless the door admitted it: one conditional statement on the row the door's admission
 * (admitTickets) also updates conditionally, so whichever commits first wins and the other matches nothing. Undefined
 * when nothing was voided (not issued yet, cancelled already, or admitted).
 */
export async function cancelTicketUnlessAdmitted(trx: Knex.Transaction, orderId: string): Promise<Ticket | undefined> {
  const rows = await trx('tickets')
    .where({ order_id: orderId, status: 'valid' })
    .whereNull('used_at')
    .update({ status: 'cancelled' })
    .returning('id');
  return readAgain(trx, rows);
}

/** Replaces the holder on every ticket of a user and forgets their CPF. */
export async function eraseHolder(trx: Knex.Transaction, userId: string, erased: ErasedPerson): Promise<number> {
  return trx('tickets')
    .where({ user_id: userId })
    .update({ holder_name: erased.name, holder_email: erased.email, holder_cpf: null });
}
