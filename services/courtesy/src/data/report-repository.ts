import type { Knex } from '@ticketing/platform';

/** A redemption (or promotional use) as the report lists it; the CPF as stored (formatted), null once erased. */
export interface RedemptionRow {
  name: string | null;
  email: string | null;
  cpf: string | null;
  orderId: string | null;
  orderNumber: string | null;
  redeemedAt: Date;
}

const NEWEST_FIRST = [
  { column: 'redeemed_at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/** The guests who redeemed a free link: what the form said (what erasure left), and the order if known. */
const redemptionsOf = (db: Knex, linkId: string) =>
  db('courtesy_redemptions')
    .join('courtesy_attendees', 'courtesy_attendees.id', 'courtesy_redemptions.attendee_id')
    .where({ 'courtesy_redemptions.link_id': linkId })
    .select(
      'courtesy_redemptions.id',
      'courtesy_attendees.name',
      'courtesy_attendees.email',
      'courtesy_attendees.cpf',
      'courtesy_redemptions.order_id',
      'courtesy_redemptions.order_number',
      'courtesy_redemptions.created_at as redeemed_at',
    );

/** The orders that took a use of a promotional link (their buyers are known to orders, not here). */
const promoUsesOf = (db: Knex, linkId: string) =>
  db('promo_uses')
    .where({ link_id: linkId })
    .select(
      'order_id as id',
      db.raw('null::text as name'),
      db.raw('null::text as email'),
      db.raw('null::text as cpf'),
      'order_id',
      'order_number',
      'created_at as redeemed_at',
    );

interface Row {
  name: string | null;
  email: string | null;
  cpf: string | null;
  order_id: string | null;
  order_number: string | null;
  redeemed_at: Date;
}

const toRow = (row: Row): RedemptionRow => ({
  name: row.name,
  email: row.email,
  cpf: row.cpf,
  orderId: row.order_id,
  orderNumber: row.order_number,
  redeemedAt: row.redeemed_at,
});

/** Every redemption of a link (or use, for a promotional one), newest first; a page of them when `page` is given. */
export async function linkRedemptions(
  db: Knex,
  link: { id: string; promotional: boolean },
  page?: { number: number; size: number },
): Promise<{ rows: RedemptionRow[]; total: number }> {
  const source = () => db.from((link.promotional ? promoUsesOf : redemptionsOf)(db, link.id).as('redemptions'));
  const query = source().orderBy([...NEWEST_FIRST]);
  if (page) query.limit(page.size).offset((page.number - 1) * page.size);
  const [rows, [{ count }]] = await Promise.all([
    query as Promise<Row[]>,
    source().count({ count: '*' }) as unknown as Promise<[{ count: string }]>,
  ]);
  return { rows: rows.map(toRow), total: Number(count) };
}

/** The order a guest's redemption became (one redemption per user and link); kept once. */
export async function recordRedemptionOrder(
  trx: Knex,
  order: { linkId: string; userId: string; orderId: string; orderNumber: string },
): Promise<void> {
  await trx('courtesy_redemptions')
    .where({ link_id: order.linkId, user_id: order.userId })
    .whereNull('order_id')
    .update({ order_id: order.orderId, order_number: order.orderNumber });
}

/** The number of the order that took a promotional use, once it is paid. */
export async function recordPromoOrderNumber(trx: Knex, orderId: string, orderNumber: string) {
  await trx('promo_uses').where({ order_id: orderId }).update({ order_number: orderNumber });
}
