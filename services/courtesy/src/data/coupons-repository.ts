import type { Knex } from '@ticketing/platform';

export interface Coupon {
  id: string;
  /** Upper-cased. */
  code: string;
  /** Null: every event. */
  eventId: string | null;
  eventTitle: string | null;
  percentOff: number | null;
  /** Reais off ("25.00"). */
  amountOff: string | null;
  /** Null: no cap. */
  maxUses: number | null;
  usedCount: number;
  startsAt: Date | null;
  endsAt: Date | null;
  /** Empty: every type of the event. */
  ticketTypeIds: string[];
  isActive: boolean;
  createdBy: string;
  createdAt: Date;
}

export type NewCoupon = Omit<Coupon, 'usedCount' | 'isActive' | 'createdAt'>;

interface CouponRow {
  id: string;
  code: string;
  event_id: string | null;
  event_title: string | null;
  percent_off: number | null;
  amount_off: string | null;
  max_uses: number | null;
  used_count: number;
  starts_at: Date | null;
  ends_at: Date | null;
  ticket_type_ids: string[];
  is_active: boolean;
  created_by: string;
  created_at: Date;
}

const toCoupon = (row: CouponRow): Coupon => ({
  id: row.id,
  code: row.code,
  eventId: row.event_id,
  eventTitle: row.event_title,
  percentOff: row.percent_off,
  amountOff: row.amount_off,
  maxUses: row.max_uses,
  usedCount: row.used_count,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  ticketTypeIds: row.ticket_type_ids,
  isActive: row.is_active,
  createdBy: row.created_by,
  createdAt: row.created_at,
});

const one = (rows: CouponRow[]) => (rows[0] ? toCoupon(rows[0]) : undefined);

/** Stores a new coupon; undefined when its code is already taken. */
export async function insertCoupon(db: Knex, coupon: NewCoupon): Promise<Coupon | undefined> {
  const rows = (await db('coupons')
    .insert({
      id: coupon.id,
      code: coupon.code,
      event_id: coupon.eventId,
      event_title: coupon.eventTitle,
      percent_off: coupon.percentOff,
      amount_off: coupon.amountOff,
      max_uses: coupon.maxUses,
      starts_at: coupon.startsAt,
      ends_at: coupon.endsAt,
      ticket_type_ids: coupon.ticketTypeIds,
      created_by: coupon.createdBy,
    })
    .onConflict('code')
    .ignore()
    .returning('*')) as CouponRow[];
  return one(rows);
}

export async function findCoupon(db: Knex, id: string): Promise<Coupon | undefined> {
  return one((await db('coupons').where({ id }).limit(1)) as CouponRow[]);
}

export async function findCouponByCode(db: Knex, code: string): Promise<Coupon | undefined> {
  return one((await db('coupons').where({ code }).limit(1)) as CouponRow[]);
}

/** A page of coupons, newest first, and how many there are in all. */
export async function listCoupons(db: Knex, page: number, size: number) {
  const [rows, [{ count }]] = await Promise.all([
    db('coupons')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(size)
      .offset((page - 1) * size) as Promise<CouponRow[]>,
    db('coupons').count({ count: '*' }) as unknown as Promise<[{ count: string }]>,
  ]);
  return { coupons: rows.map(toCoupon), total: Number(count) };
}

export async function setActive(db: Knex, id: string, isActive: boolean): Promise<Coupon | undefined> {
  const rows = (await db('coupons')
    .where({ id })
    .update({ is_active: isActive, updated_at: db.fn.now() })
    .returning('*')) as CouponRow[];
  return one(rows);
}

/** Takes one use with one conditional statement: never more than the cap, whatever the concurrency. */
export async function takeUse(db: Knex, id: string): Promise<Coupon | undefined> {
  const rows = (await db('coupons')
    .where({ id })
    .where((q) => q.whereNull('max_uses').orWhere('used_count', '<', db.ref('max_uses')))
    .update({ used_count: db.raw('used_count + 1'), updated_at: db.fn.now() })
    .returning('*')) as CouponRow[];
  return one(rows);
}

export async function giveUseBack(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('coupons')
    .where({ id })
    .where('used_count', '>', 0)
    .update({ used_count: trx.raw('used_count - 1'), updated_at: trx.fn.now() });
}

/** Keeps the event title the coupons of an event show current. */
export async function updateCouponEventTitle(trx: Knex.Transaction, eventId: string, title: string): Promise<void> {
  await trx('coupons').where({ event_id: eventId }).update({ event_title: title });
}
