import type { Knex } from '@ticketing/platform';

/** The link whose use an order took, if it took one. */
export async function findPromoUse(db: Knex, orderId: string): Promise<string | undefined> {
  const row = (await db('promo_uses').where({ order_id: orderId }).first('link_id')) as { link_id: string } | undefined;
  return row?.link_id;
}

export async function insertPromoUse(trx: Knex, orderId: string, linkId: string): Promise<void> {
  await trx('promo_uses').insert({ order_id: orderId, link_id: linkId });
}

/** Forgets an order's use; the link it belonged to, or undefined when the order had none (or gave it back). */
export async function deletePromoUse(trx: Knex.Transaction, orderId: string): Promise<string | undefined> {
  const [row] = (await trx('promo_uses').where({ order_id: orderId }).delete().returning('link_id')) as {
    link_id: string;
  }[];
  return row?.link_id;
}
