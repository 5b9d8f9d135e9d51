import { CollaboratorError, jsonClient, type ServiceAuth } from '@ticketing/platform';
import { z } from 'zod';

const promoLinkSchema = z.object({
  linkId: z.uuid(),
  overridePrice: z.string().regex(/^\d{1,8}\.\d{2}$/),
});

/** A promotional courtesy link as a purchase uses it: which link, and the ticket price it gives ("80.00"). */
export type PromoLink = z.infer<typeof promoLinkSchema>;

/** Courtesy as orders uses it: the promotional links a code names, and the use each order takes of one. */
export interface CourtesyClient {
  /** The active promotional link of the event the code names, with uses left; null when there is none. */
  findPromoLink(eventId: string, code: string): Promise<PromoLink | null>;
  /** Takes one use of the link for the order; repeating it is harmless. Refusals (404 invalid / 409 no use left) are thrown. */
  takePromoUse(orderId: string, use: { code: string; eventId: string }): Promise<PromoLink>;
  /** Gives the order's use back; true when it had one. */
  releasePromoUse(orderId: string): Promise<boolean>;
}

export function courtesyClient(baseUrl: string, timeoutMs: number, auth: ServiceAuth): CourtesyClient {
  const http = jsonClient('courtesy', baseUrl, timeoutMs, auth);
  const usePath = (orderId: string) => `/internal/promo-uses/${encodeURIComponent(orderId)}`;
  // An answer that is not what the contract says is treated like no answer: the caller cannot rely on it.
  const promoLink = (answer: unknown): PromoLink => {
    const parsed = promoLinkSchema.safeParse(answer);
    if (!parsed.success) throw new CollaboratorError('courtesy', null, 'courtesy answered an unexpected promo link');
    return parsed.data;
  };
  return {
    async findPromoLink(eventId, code) {
      const query = `?eventId=${encodeURIComponent(eventId)}`;
      try {
        return promoLink(await http.call('GET', `/internal/promo-links/${encodeURIComponent(code)}${query}`));
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return null;
        throw error;
      }
    },
    async takePromoUse(orderId, use) {
      return promoLink(await http.call('PUT', usePath(orderId), use));
    },
    async releasePromoUse(orderId) {
      const answer = await http.call<{ released?: unknown }>('DELETE', usePath(orderId));
      return answer?.released === true;
    },
  };
}
