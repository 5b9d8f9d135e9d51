import type { Knex } from '@ticketing/platform';
import { randomUUID } from 'node:crypto';
import { lotName, type TicketLot, type TicketType } from '../domain/ticket-types.ts';
import { replaceOwnedRows } from './owned-rows.ts';

/** A lot to store: one with an `id` of its type is kept (changed in place, its count too), one without is new. */
export type LotPlan = Pick<TicketLot, 'name' | 'price' | 'endsAt' | 'quantity'> & { id?: string | undefined };

/** A type to store, as `LotPlan` for lots. */
export type TicketTypePlan = Omit<TicketType, 'id' | 'taken' | 'lots'> & {
  id?: string | undefined;
  lots: LotPlan[];
};

/**
 * Makes `plans` the event's types, in their order, and each one's lots theirs: those with an id (the event's,
 * checked by the caller) change in place keeping their counts; the others are added; the event's others are
 * removed (the caller refuses removing what took tickets).
 */
export async function replaceTicketTypes(trx: Knex.Transaction, eventId: string, plans: TicketTypePlan[]) {
  const types = plans.map((plan, position) => ({ ...plan, id: plan.id ?? randomUUID(), position }));
  await replaceOwnedRows(
    trx,
    'ticket_types',
    (query) => query.where({ event_id: eventId }),
    types.map((type) => ({
      id: type.id,
      event_id: eventId,
      position: type.position,
      name: type.name,
      price: type.price,
      capacity: type.capacity,
      hidden: type.hidden,
      requires_document: type.requiresDocument,
      sales_start_at: type.salesStartAt,
      sales_end_at: type.salesEndAt,
    })),
    ['position', 'name', 'price', 'capacity', 'hidden', 'requires_document', 'sales_start_at', 'sales_end_at'],
  );

  const lots = types.flatMap((type) =>
    type.lots.map((lot, position) => ({
      id: lot.id ?? randomUUID(),
      ticket_type_id: type.id,
      position,
      name: lot.name,
      price: lot.price,
      ends_at: lot.endsAt,
      quantity: lot.quantity,
    })),
  );
  await replaceOwnedRows(
    trx,
    'ticket_lots',
    (query) =>
      query.whereIn(
        'ticket_type_id',
        types.map((type) => type.id),
      ),
    lots,
    ['position', 'name', 'price', 'ends_at', 'quantity'],
  );
}

/** One ticket a hold took: of a type, at a lot (null for a type without lots), at that lot's price. */
export interface TakenTicket {
  ticketTypeId: string;
  lotId: string | null;
  price: string;
}

/** A hold's ticket as answered: with its type's and lot's names. */
export interface HoldLine extends TakenTicket {
  typeName: string;
  lotName: string | null;
  requiresDocument: boolean;
}

/**
 * Records the tickets holds took, in their order, and counts them taken on their types and lots (increments, so a
 * release counting some back meanwhile is not lost).
 */
export async function recordTakenTickets(trx: Knex.Transaction, taken: Map<string, TakenTicket[]>): Promise<void> {
  const lines = [...taken].flatMap(([holdId, tickets]) =>
    tickets.map((ticket, position) => ({
      hold_id: holdId,
      position,
      ticket_type_id: ticket.ticketTypeId,
      lot_id: ticket.lotId,
      price: ticket.price,
    })),
  );
  if (lines.length === 0) return;
  await trx('hold_lines').insert(lines);
  const count = (ids: (string | null)[]) => {
    const counts = new Map<string, number>();
    for (const id of ids) if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    return JSON.stringify([...counts].map(([id, n]) => ({ id, n })));
  };
  await trx.raw(
    `update ticket_types set taken = taken + c.n from jsonb_to_recordset(?::jsonb) as c(id uuid, n integer)
     where ticket_types.id = c.id`,
    [count(lines.map((line) => line.ticket_type_id))],
  );
  await trx.raw(
    `update ticket_lots set taken = taken + c.n from jsonb_to_recordset(?::jsonb) as c(id uuid, n integer)
     where ticket_lots.id = c.id`,
    [count(lines.map((line) => line.lot_id))],
  );
}

/**
 * Gives back to their types and lots the tickets of released holds, but the first `keep` of each (given to someone
 * already).
 */
export async function returnTakenTickets(trx: Knex.Transaction, holdIds: string[], keep = 0): Promise<void> {
  if (holdIds.length === 0) return;
  await trx.raw(
    `with given as (select ticket_type_id, lot_id from hold_lines where hold_id = any(:holdIds) and position >= :keep),
     types as (
       update ticket_types set taken = taken - c.n
       from (select ticket_type_id as id, count(*)::integer as n from given group by 1) as c
       where ticket_types.id = c.id
     )
     update ticket_lots set taken = taken - c.n
     from (select lot_id as id, count(*)::integer as n from given where lot_id is not null group by 1) as c
     where ticket_lots.id = c.id`,
    { holdIds, keep },
  );
}

interface HoldLineRow {
  hold_id: string;
  ticket_type_id: string;
  type_name: string;
  lot_id: string | null;
  lot_name: string | null;
  lot_position: number | null;
  price: string;
  requires_document: boolean;
}

/** The tickets each of the holds took, in their order, by hold id (none for a hold of the event's spots alone). */
export async function findHoldLines(db: Knex, holdIds: string[]): Promise<Map<string, HoldLine[]>> {
  const lines = new Map<string, HoldLine[]>();
  if (holdIds.length === 0) return lines;
  const rows = (await db('hold_lines as hl')
    .join('ticket_types as t', 't.id', 'hl.ticket_type_id')
    .leftJoin('ticket_lots as l', 'l.id', 'hl.lot_id')
    .whereIn('hl.hold_id', holdIds)
    .orderBy(['hl.hold_id', 'hl.position'])
    .select(
      'hl.hold_id',
      'hl.ticket_type_id',
      't.name as type_name',
      'hl.lot_id',
      'l.name as lot_name',
      'l.position as lot_position',
      db.raw('hl.price::text as price'),
      't.requires_document',
    )) as HoldLineRow[];
  for (const row of rows) {
    const line: HoldLine = {
      ticketTypeId: row.ticket_type_id,
      typeName: row.type_name,
      lotId: row.lot_id,
      lotName: row.lot_id === null ? null : lotName({ name: row.lot_name, position: row.lot_position! }),
      price: row.price,
      requiresDocument: row.requires_document,
    };
    lines.set(row.hold_id, [...(lines.get(row.hold_id) ?? []), line]);
  }
  return lines;
}
