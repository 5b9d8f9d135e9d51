import type { Knex } from '@ticketing/platform';
import type { OrderTimelineEntry, OrderTimelineKind } from '@ticketing/proto';

export interface TimelineNote {
  kind: OrderTimelineKind;
  /** When it happened; now when not told. */
  at?: Date | string | null;
  detail?: string | null;
}

/**
 * Notes what happened to an order, in the caller's transaction. An order unknown here (an event about an order
 * of another deployment, say) notes nothing.
 */
export async function recordTimeline(db: Knex, orderId: string, note: TimelineNote): Promise<void> {
  await db.raw(
    `insert into order_timeline (order_id, kind, at, detail)
       select id, ?, coalesce(?::timestamptz, now()), ? from orders where id = ?`,
    [note.kind, note.at ?? null, note.detail ?? null, orderId],
  );
}

/** What happened to an order, oldest first (ties in the order they were noted). */
export async function listTimeline(db: Knex, orderId: string): Promise<OrderTimelineEntry[]> {
  const rows = (await db('order_timeline')
    .where({ order_id: orderId })
    .orderBy([{ column: 'at' }, { column: 'id' }])
    .select('at', 'kind', 'detail')) as { at: Date; kind: OrderTimelineKind; detail: string | null }[];
  return rows.map((row) => ({ at: row.at.toISOString(), kind: row.kind, detail: row.detail }));
}
