/** Every coupon query starts with this key; its path is `/coupons`. */
export const COUPONS_KEY = ['coupons'] as const;

/** A page of the coupons, newest first (`GET /api/coupons?page=`). */
export const couponPageKey = (page: number) => [...COUPONS_KEY, { page }] as const;
