import type { Knex } from '@ticketing/platform';

/** The coupon whose use an order holds (taken and not given back), if it holds one. */
export async function findHeldUse(db: Knex, orderId: string): Promise<string | undefined> {
  const row = (await db('coupon_uses').where({ order_id: orderId }).whereNull('released_at').first('coupon_id')) as
    { coupon_id: string } | undefined;
  return row?.coupon_id;
}

/** The coupon whose use an order gave back, its row locked until the transaction ends, if it gave one back. */
export async function lockReleasedUse(trx: Knex.Transaction, orderId: string): Promise<string | undefined> {
  const row = (await trx('coupon_uses')
    .where({ order_id: orderId })
    .whereNotNull('released_at')
    .forUpdate()
    .first('coupon_id')) as { coupon_id: string } | undefined;
  return row?.coupon_id;
}

/**
 * Records that the order holds a use of the coupon: a new row, or its given-back one taken again. False when the
 * order holds a use already; the unique order id makes a twin request wait for the first and then see it.
 */
export async function claimUse(trx: Knex.Transaction, orderId: string, couponId: string): Promise<boolean> {
  const rows = await trx('coupon_uses')
    .insert({ order_id: orderId, coupon_id: couponId })
    .onConflict('order_id')
    .merge({ coupon_id: couponId, taken_at: trx.fn.now(), released_at: null })
    .whereNotNull('coupon_uses.released_at')
    .returning('order_id');
  return rows.length === 1;
}

/** Marks an order's use given back; the coupon it belonged to, or undefined when it held none. */
export async function releaseUse(trx: Knex.Transaction, orderId: string): Promise<string | undefined> {
  const [row] = (await trx('coupon_uses')
    .where({ order_id: orderId })
    .whereNull('released_at')
    .update({ released_at: trx.fn.now() })
    .returning('coupon_id')) as { coupon_id: string }[];
  return row?.coupon_id;
}
