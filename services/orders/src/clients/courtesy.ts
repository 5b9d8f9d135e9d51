import { CollaboratorError, jsonClient, type Caller } from '@ticketing/platform';
import {
  couponQuoteSchema,
  couponUseReleaseSchema,
  promoQuoteSchema,
  promoUseReleaseSchema,
  type CouponQuote,
  type CouponUseRequest,
  type PromoQuote,
  type PromoUseRequest,
} from '@ticketing/proto';

/**
 * Courtesy as orders uses it: the promotional links a code names, and the use each order takes of one; the use each
 * order takes of a coupon.
 */
export interface CourtesyClient {
  /** The active promotional link of the event the code names, with uses left; null when there is none. */
  findPromoLink(eventId: string, code: string): Promise<PromoQuote | null>;
  /** Takes one use of the link for the order; repeating it is harmless. Refusals (404 invalid / 409 no use left) are thrown. */
  takePromoUse(orderId: string, use: PromoUseRequest): Promise<PromoQuote>;
  /** Gives the order's use back; true when it had one. */
  releasePromoUse(orderId: string): Promise<boolean>;
  /**
   * Takes one use of the coupon for the order, answering what it takes off; repeating it is harmless. Refusals
   * (404 invalid, 409 used up, 422 expired / not yet / other types, in courtesy's words) are thrown.
   */
  takeCouponUse(orderId: string, use: CouponUseRequest): Promise<CouponQuote>;
  /** Gives the order's coupon use back; true when it had one. */
  releaseCouponUse(orderId: string): Promise<boolean>;
}

export function courtesyClient(baseUrl: string, timeoutMs: number, caller: Caller): CourtesyClient {
  const http = jsonClient('courtesy', baseUrl, timeoutMs, caller);
  const usePath = (orderId: string) => `/internal/promo-uses/${encodeURIComponent(orderId)}`;
  const couponUsePath = (orderId: string) => `/internal/coupon-uses/${encodeURIComponent(orderId)}`;
  return {
    async findPromoLink(eventId, code) {
      const query = `?eventId=${encodeURIComponent(eventId)}`;
      try {
        return await http.call('GET', `/internal/promo-links/${encodeURIComponent(code)}${query}`, promoQuoteSchema);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return null;
        throw error;
      }
    },
    takePromoUse(orderId, use) {
      return http.call('PUT', usePath(orderId), promoQuoteSchema, use);
    },
    async releasePromoUse(orderId) {
      const { released } = await http.call('DELETE', usePath(orderId), promoUseReleaseSchema);
      return released;
    },
    takeCouponUse: (orderId, use) => http.call('PUT', couponUsePath(orderId), couponQuoteSchema, use),
    async releaseCouponUse(orderId) {
      const { released } = await http.call('DELETE', couponUsePath(orderId), couponUseReleaseSchema);
      return released;
    },
  };
}
