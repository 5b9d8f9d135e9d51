import type { Knex } from '@ticketing/platform';

/**
 * Pending orders by where their payment window stands: closing within `aheadMs`, or already over (read through the
 * `orders_pending_expiry` partial index).
 */
export async function countPendingByDeadline(
  db: Knex,
  now: Date,
  aheadMs: number,
): Promise<{ nearExpiry: number; overdue: number }> {
  const [row] = await db('orders')
    .where({ status: 'pending' })
    .where('expires_at', '<=', new Date(now.getTime() + aheadMs))
    .select(
      db.raw('count(*) filter (where expires_at > ?)::int as near_expiry', [now]),
      db.raw('count(*) filter (where expires_at <= ?)::int as overdue', [now]),
    );
  return { nearExpiry: row?.near_expiry ?? 0, overdue: row?.overdue ?? 0 };
}

/** Refunds still owed that the provider refused (the `orders_refunds_refused` partial index). */
export async function countRefusedRefunds(db: Knex): Promise<number> {
  const [row] = await db('orders')
    .whereNotNull('refund_refused_at')
    .whereNotNull('refund_owed_since')
    .count<{ n: string }[]>({ n: '*' });
  return Number(row?.n ?? 0);
}
